// Loads a viewer page in headless Chromium (Debian's, driven by playwright-core) and checks what a
// user would see: no console errors, no failed or refused requests, no script run from recorded
// strings, every chart drawn with data, the trigger marked, the process table filled, zoom shared.
// Saves a full-page screenshot. Usage (tests/e2e/viewer.sh runs it):
//   node browser_test.js URL SCREENSHOT.png [--trigger] [--processes N] [--comm TEXT]
//     [--oom LABEL --oom-rows N]   (an OOM kill marked with LABEL, N top memory consumers listed)
//     [--containers NAME,NAME...]  (a container section each, in that order, with its charts)
//     [--sort KEY --first PID]     (the table sorted by KEY biggest first, PID the first row; a
//                                   click on KEY's heading reverses it)
//     [--growth-first PID]         (a click on the RSS growth heading puts PID first)
//     [--threshold CHART]          (the rule's threshold drawn as a line on CHART)
//     [--value TEXT]               (the header's value reads TEXT)
//     [--labels NAME=VALUE,...]    (the alert's labels table, in that order)
// Every chart of more ticks than pixels must draw its min/max band, and draw its raw ticks without
// a band once zoomed in. Exits 1 listing every failed check.
'use strict';
const { chromium } = require('playwright-core');

function parseArgs(argv) {
  const args = {
    url: argv[0], screenshot: argv[1], trigger: false, processes: 0, comm: null, oom: null, oomRows: 0,
    containers: null, sort: null, first: null, growthFirst: null, threshold: null, value: null,
    labels: null,
  };
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--trigger') args.trigger = true;
    else if (argv[i] === '--processes') args.processes = Number(argv[++i]);
    else if (argv[i] === '--comm') args.comm = argv[++i];
    else if (argv[i] === '--oom') args.oom = argv[++i];
    else if (argv[i] === '--oom-rows') args.oomRows = Number(argv[++i]);
    else if (argv[i] === '--containers') args.containers = argv[++i].split(',');
    else if (argv[i] === '--sort') args.sort = argv[++i];
    else if (argv[i] === '--first') args.first = argv[++i];
    else if (argv[i] === '--growth-first') args.growthFirst = argv[++i];
    else if (argv[i] === '--threshold') args.threshold = argv[++i];
    else if (argv[i] === '--value') args.value = argv[++i];
    else if (argv[i] === '--labels') args.labels = argv[++i].split(',').map((pair) => pair.split('='));
    else throw new Error('unknown argument ' + argv[i]);
  }
  if (!args.url || !args.screenshot) throw new Error('usage: browser_test.js URL SCREENSHOT [...]');
  return args;
}

// Runs in the page: what each chart holds and has drawn.
function inspectCharts() {
  const viewer = window.flightrecViewer;
  const hex = (color) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  const near = (data, at, rgb) => Math.abs(data[at] - rgb[0]) < 40 &&
    Math.abs(data[at + 1] - rgb[1]) < 40 && Math.abs(data[at + 2] - rgb[2]) < 40 && data[at + 3] > 100;
  return viewer.charts.map((chart) => {
    const u = chart.plot;
    const { left, top, width, height } = u.bbox;
    const pixels = u.ctx.getImageData(Math.round(left), Math.round(top), Math.round(width),
      Math.round(height)).data;
    // Pixels in each line's own stroke colour: the data really was drawn.
    const drawn = u.series.slice(1).map((series) => {
      const rgb = hex(series._stroke || series.stroke());
      let count = 0;
      for (let at = 0; at < pixels.length; at += 4) if (near(pixels, at, rgb)) count++;
      return count;
    });
    let markerPixels = 0;
    if (viewer.trigger != null) {
      const x = Math.round(u.valToPos(viewer.trigger, 'x', true));
      const column = u.ctx.getImageData(x - 1, Math.round(top), 3, Math.round(height)).data;
      for (let at = 0; at < column.length; at += 4) if (near(column, at, [214, 39, 40])) markerPixels++;
    }
    // The OOM kill's marker, in its own colour (#7b2cbf).
    let oomPixels = 0;
    if (viewer.oom != null) {
      const x = Math.round(u.valToPos(viewer.oom.killed_at, 'x', true));
      const column = u.ctx.getImageData(x - 1, Math.round(top), 3, Math.round(height)).data;
      for (let at = 0; at < column.length; at += 4) if (near(column, at, [123, 44, 191])) oomPixels++;
    }
    // The min/max band: pixels in a line's colour at the band's opacity (a quarter) on the
    // otherwise transparent canvas.
    const bands = u.series.slice(1).map((series) => {
      const rgb = hex(series._stroke || series.stroke());
      let count = 0;
      for (let at = 0; at < pixels.length; at += 4) {
        if (Math.abs(pixels[at] - rgb[0]) < 40 && Math.abs(pixels[at + 1] - rgb[1]) < 40 &&
          Math.abs(pixels[at + 2] - rgb[2]) < 40 && pixels[at + 3] > 40 && pixels[at + 3] < 90) count++;
      }
      return count;
    });
    // The threshold: dark pixels along its row.
    let thresholdPixels = 0;
    if (chart.threshold) {
      const y = Math.round(u.valToPos(viewer.threshold.value, 'y', true));
      const row = u.ctx.getImageData(Math.round(left), y - 1, Math.round(width), 3).data;
      for (let at = 0; at < row.length; at += 4) if (near(row, at, [34, 34, 34])) thresholdPixels++;
    }
    return {
      id: chart.id,
      cssWidth: Math.round(width / (window.devicePixelRatio || 1)),
      raw: chart.stats.raw,
      bandBuckets: chart.stats.bandBuckets.reduce((a, b) => a + b, 0),
      bandPixels: bands.reduce((a, b) => a + b, 0),
      threshold: chart.threshold,
      thresholdPixels,
      xTicks: u.axes[0]._values,
      oomPixels,
      points: u.data[0].length,
      valuesPerLine: u.data.slice(1).map((values) => values.filter((v) => v != null).length),
      drawnPixelsPerLine: drawn,
      markerPixels,
      plotHeight: Math.round(height),
    };
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const failures = [];
  const check = (ok, what) => {
    if (ok) console.log('ok: ' + what);
    else failures.push(what);
  };
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = [];
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push('console error: ' + msg.text()); });
    page.on('pageerror', (error) => problems.push('page error: ' + error.message));
    page.on('requestfailed', (request) => problems.push('request failed: ' + request.url() + ' ' + request.failure().errorText));
    page.on('response', (response) => { if (response.status() >= 400) problems.push('HTTP ' + response.status() + ' for ' + response.url()); });
    page.on('dialog', async (dialog) => { problems.push('a dialog opened (script injection?): ' + dialog.message()); await dialog.dismiss(); });
    const requests = [];
    page.on('request', (request) => requests.push(request.url()));

    const started = Date.now();
    const response = await page.goto(args.url, { waitUntil: 'load' });
    check(response.status() === 200, 'the page answers 200 (got ' + response.status() + ')');
    await page.waitForFunction(() => window.flightrecViewer && window.flightrecViewer.ready, null, { timeout: 30000 });
    console.log('loaded and drawn in ' + (Date.now() - started) + ' ms');

    const charts = await page.evaluate(inspectCharts);
    check(charts.length >= 4, charts.length + ' charts (cpu, memory, pressure, disk, network)');
    for (const chart of charts) {
      console.log(JSON.stringify(chart));
      check(chart.points > 0, chart.id + ': ' + chart.points + ' points');
      check(chart.valuesPerLine.every((n) => n > 0), chart.id + ': every line has values');
      const drawn = chart.drawnPixelsPerLine.reduce((a, b) => a + b, 0);
      check(drawn > 20, chart.id + ': its lines are drawn on the canvas (' + drawn + ' pixels in their colours)');
      if (args.trigger) {
        check(chart.markerPixels > chart.plotHeight, chart.id + ': the trigger is marked (' + chart.markerPixels + ' red pixels)');
      }
      // More ticks than pixels: the mean a pixel, with the min/max band around it.
      if (chart.points > chart.cssWidth && !chart.id.endsWith('-strip')) {
        // Up to a bucket per pixel of the plot and one past each end (uPlot hands the paths the
        // ticks just outside the span too).
        check(!chart.raw && chart.bandBuckets > 0 && chart.bandBuckets <= (chart.cssWidth + 3) * chart.valuesPerLine.length,
          chart.id + ': ' + chart.points + ' ticks drawn as ' + chart.bandBuckets + ' one-pixel buckets');
      }
      // The time axis as the header writes times: ISO date over a 24-hour UTC clock.
      check(chart.xTicks && /^\d{4}-\d\d-\d\d\n\d\d:\d\d(:\d\d(\.\d{3})?)?$/.test(chart.xTicks[0]) &&
        chart.xTicks.slice(1).every((t) => t == null || /^(\d{4}-\d\d-\d\d\n)?\d\d:\d\d(:\d\d(\.\d{3})?)?$/.test(t)),
      chart.id + ': time axis in ISO UTC: ' + JSON.stringify(chart.xTicks && chart.xTicks.slice(0, 3)));
    }
    // A line whose ticks differ within a pixel (network, pressure) shows its band; a steady one
    // (memory growing 4 KiB a tick) has none to show.
    check(charts.some((chart) => chart.bandPixels > 100),
      'a min/max band is drawn: ' + JSON.stringify(charts.map((c) => [c.id, c.bandPixels])));
    if (args.threshold != null) {
      const marked = charts.filter((chart) => chart.threshold);
      check(marked.length === 1 && marked[0].id === args.threshold,
        'the threshold goes on the ' + args.threshold + ' chart only: ' + JSON.stringify(marked.map((c) => c.id)));
      check(marked.length === 1 && marked[0].thresholdPixels > marked[0].cssWidth / 3,
        'the threshold line is drawn (' + (marked[0] || {}).thresholdPixels + ' dark pixels along it)');
    } else {
      check(charts.every((chart) => !chart.threshold), 'no threshold line without a charted rule signal');
    }

    const header = await page.evaluate(() => ({
      details: [...document.querySelectorAll('#details dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]),
      labelsHidden: document.getElementById('labels').hidden,
      labels: [...document.querySelectorAll('#labels tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
    }));
    if (args.value != null) {
      const value = header.details.find(([key]) => key === 'value');
      check(value && value[1] === args.value, 'the header\'s value reads ' + JSON.stringify(args.value) + ': ' + JSON.stringify(value));
    }
    if (args.labels != null) {
      check(!header.labelsHidden && JSON.stringify(header.labels) === JSON.stringify(args.labels),
        'the alert\'s labels are a table: ' + JSON.stringify(header.labels));
      check(header.details.every(([key]) => !key.startsWith('alert.label.') && key !== 'series'),
        'the labels are not repeated among the details: ' + JSON.stringify(header.details.map(([key]) => key)));
    } else {
      check(header.labelsHidden, 'no labels table without an alert');
    }
    if (args.trigger) {
      const draws = await page.evaluate(() => window.flightrecViewer.markerDraws);
      check(draws >= charts.length, 'the trigger marker was drawn on every chart');
    }

    if (args.oom != null) {
      for (const chart of charts) {
        check(chart.oomPixels > chart.plotHeight, chart.id + ': the OOM kill is marked (' + chart.oomPixels + ' purple pixels)');
      }
      const oom = await page.evaluate(() => ({
        draws: window.flightrecViewer.oomMarkerDraws,
        label: window.flightrecViewer.oom && window.flightrecViewer.oom.victim,
        note: document.getElementById('oom-note').textContent,
        hidden: document.getElementById('oom').hidden,
        rows: [...document.querySelectorAll('#oom-table tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
      }));
      check(oom.draws >= charts.length, 'the OOM marker was drawn on every chart');
      check(!oom.hidden && oom.note.startsWith(args.oom + ' at '), 'the OOM section names the kill: ' + JSON.stringify(oom.note));
      check(oom.rows.length === args.oomRows, oom.rows.length + ' top memory consumers (want ' + args.oomRows + ')');
      check(oom.rows.length > 0 && oom.rows[0][0] === args.oom.split(' ')[2], 'the victim leads them: ' + JSON.stringify(oom.rows[0]));
    }

    if (args.containers != null) {
      const sections = await page.evaluate(() => ({
        hidden: document.getElementById('containers').hidden,
        names: [...document.querySelectorAll('#containers-list > section > h3')].map((h) => h.textContent),
        charts: window.flightrecViewer.charts.map((c) => c.id).filter((id) => id.startsWith('container-')),
      }));
      check(!sections.hidden, 'the containers section is shown');
      check(JSON.stringify(sections.names) === JSON.stringify(args.containers),
        'a section per container: ' + JSON.stringify(sections.names));
      // The throttled one's period strip and memory, the other's memory (no quota, no strip).
      check(sections.charts.length >= args.containers.length + 1,
        'their charts (drawn, checked above): ' + JSON.stringify(sections.charts));
    }

    const rows = await page.$$eval('#processes-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    check(rows.length >= args.processes, rows.length + ' process rows (want at least ' + args.processes + ')');
    if (args.comm != null) {
      check(rows.some((cells) => cells[1] === args.comm), 'the process name ' + JSON.stringify(args.comm) + ' shows as text');
      const injected = await page.$$eval('#processes-table b, #processes-table script', (nodes) => nodes.length);
      check(injected === 0, 'no element was made from recorded strings');
    }

    if (args.sort != null) {
      const table = async () => page.evaluate(() => ({
        sort: window.flightrecViewer.processSort,
        pids: [...document.querySelectorAll('#processes-table tbody tr')].map((tr) => tr.cells[0].textContent),
        rss: [...document.querySelectorAll('#processes-table tbody tr')].map((tr) => tr.cells[4].textContent),
        growth: [...document.querySelectorAll('#processes-table tbody tr')].map((tr) => tr.cells[5].textContent),
        ariaSort: [...document.querySelectorAll('#processes-table th')].filter((th) => th.getAttribute('aria-sort') !== 'none').map((th) => th.dataset.key + ' ' + th.getAttribute('aria-sort')),
      }));
      const first = await table();
      check(first.sort.key === args.sort && first.sort.descending && first.pids[0] === args.first,
        'sorted by ' + args.sort + ' by default, ' + args.first + ' first: ' + JSON.stringify(first));
      check(first.growth.every((text) => /^([+-]?\d+(\.\d)? (B|KiB|MiB|GiB|TiB)|–)$/.test(text)),
        'the RSS growth column reads in binary units: ' + JSON.stringify(first.growth));
      await page.click('#processes-table th[data-key="' + args.sort + '"]');
      const reversed = await table();
      check(!reversed.sort.descending && reversed.pids[reversed.pids.length - 1] === args.first &&
        JSON.stringify(reversed.ariaSort) === JSON.stringify([args.sort + ' ascending']),
      'a second click reverses it: ' + JSON.stringify(reversed));
      if (args.growthFirst != null) {
        await page.click('#processes-table th[data-key="growth"]');
        const growth = await table();
        check(growth.sort.key === 'growth' && growth.sort.descending && growth.pids[0] === args.growthFirst &&
          growth.growth[0].startsWith('+'),
        'a click on RSS growth sorts by it, ' + args.growthFirst + ' first: ' + JSON.stringify(growth));
      }
    }

    // Zooming one chart zooms them all.
    const zoom = await page.evaluate(async () => {
      const [first, ...others] = window.flightrecViewer.charts.map((c) => c.plot);
      const { min, max } = first.scales.x;
      const mid = (min + max) / 2;
      first.setScale('x', { min: mid - 0.05, max: mid + 0.05 });
      await new Promise((resolve) => setTimeout(resolve, 100));  // uPlot commits in a microtask
      return others.every((u) => Math.abs(u.scales.x.min - (mid - 0.05)) < 1e-6 && Math.abs(u.scales.x.max - (mid + 0.05)) < 1e-6);
    });
    check(zoom, 'zooming one chart zooms every chart');
    // 100 ms is fewer ticks than pixels: every line is drawn tick by tick, without a band.
    const zoomed = await page.evaluate(inspectCharts);
    check(zoomed.every((chart) => chart.raw && chart.bandBuckets === 0),
      'zoomed in, the raw ticks are drawn: ' + JSON.stringify(zoomed.map((c) => [c.id, c.raw, c.bandBuckets])));
    await page.evaluate(async () => {
      const first = window.flightrecViewer.charts[0].plot;
      first.setScale('x', { min: first.data[0][0], max: first.data[0][first.data[0].length - 1] });
      await new Promise((resolve) => setTimeout(resolve, 100));
    });

    check(requests.length === 1, 'the page fetched nothing after itself (' + requests.length + ' requests)');
    check(problems.length === 0, 'no console errors, failed requests or dialogs' + (problems.length ? ': ' + problems.join('; ') : ''));
    await page.screenshot({ path: args.screenshot, fullPage: true });
    console.log('screenshot: ' + args.screenshot);
  } finally {
    await browser.close();
  }
  if (failures.length > 0) {
    for (const failure of failures) console.error('FAIL: ' + failure);
    process.exit(1);
  }
  console.log('all browser checks passed');
}

main().catch((error) => {
  console.error('FAIL: ' + (error.stack || error));
  process.exit(1);
});
