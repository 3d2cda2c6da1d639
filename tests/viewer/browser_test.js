// Loads a viewer page in headless Chromium (Debian's, driven by playwright-core) and checks what a
// user would see: no console errors, no failed or refused requests, no script run from recorded
// strings, every chart drawn with data, the trigger marked, the process table filled, zoom shared.
// Saves a full-page screenshot. Usage (tests/e2e/viewer.sh runs it):
//   node browser_test.js URL SCREENSHOT.png [--trigger] [--processes N] [--comm TEXT]
//     [--oom LABEL --oom-rows N]   (an OOM kill marked with LABEL, N top memory consumers listed)
//     [--containers NAME,NAME...]  (a container section each, in that order, with its charts)
// Exits 1 listing every failed check.
'use strict';
const { chromium } = require('playwright-core');

function parseArgs(argv) {
  const args = {
    url: argv[0], screenshot: argv[1], trigger: false, processes: 0, comm: null, oom: null, oomRows: 0,
    containers: null,
  };
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--trigger') args.trigger = true;
    else if (argv[i] === '--processes') args.processes = Number(argv[++i]);
    else if (argv[i] === '--comm') args.comm = argv[++i];
    else if (argv[i] === '--oom') args.oom = argv[++i];
    else if (argv[i] === '--oom-rows') args.oomRows = Number(argv[++i]);
    else if (argv[i] === '--containers') args.containers = argv[++i].split(',');
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
    return {
      id: chart.id,
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
