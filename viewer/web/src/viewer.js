// The incident viewer page. Reads the inline JSON (#flightrec-data, layout in docs/VIEWER.md),
// draws one uPlot chart per signal group with the trigger (and an OOM kill) marked, zooms every
// chart together and fills the process tables. Recorded strings (process names, command lines)
// only ever reach the page as text (textContent), never as HTML.
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('flightrec-data').textContent);
  const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173'];
  const TRIGGER_COLOR = '#d62728';
  const OOM_COLOR = '#7b2cbf';
  const THRESHOLD_COLOR = '#222222';
  // The min/max band under each line, its colour at this opacity.
  const BAND_ALPHA = 0.25;
  const CHART_HEIGHT = 240;

  // What the browser test and a curious user can inspect: every chart and its uPlot instance.
  const state = {
    charts: [], trigger: data.trigger, markerDraws: 0, oom: data.oom, oomMarkerDraws: 0,
    threshold: data.threshold, thresholdDraws: 0, processSort: null, ready: false,
  };
  window.flightrecViewer = state;

  const times = new Float64Array(data.t.length);
  for (let i = 0; i < data.t.length; i++) times[i] = data.t0 + data.t[i];

  const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  function byteUnit(value) {
    let unit = 0;
    for (let v = Math.abs(value); v >= 1024 && unit < BYTE_UNITS.length - 1; v /= 1024) unit++;
    return unit;
  }

  // `digits` decimals, or one below 100 of a unit (none for plain bytes) when not given.
  function formatBytes(value, unit = byteUnit(value), digits) {
    const v = value / Math.pow(1024, unit);
    const places = digits != null ? digits : unit === 0 || Math.abs(v) >= 100 ? 0 : 1;
    return v.toFixed(places) + ' ' + BYTE_UNITS[unit];
  }

  // Axis labels share one unit and enough decimals to tell neighbouring ticks apart
  // (1.62, 1.64, 1.66 GiB rather than 1.6 GiB three times).
  function axisValues(unit, splits) {
    if (unit !== 'bytes' && unit !== 'bytes/s') return splits.map((v) => formatValue(unit, v));
    const byteUnitOfAxis = byteUnit(Math.max(...splits.map(Math.abs)));
    const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) / Math.pow(1024, byteUnitOfAxis) : 1;
    const digits = Math.min(3, Math.max(0, Math.ceil(-Math.log10(step))));
    const suffix = unit === 'bytes/s' ? '/s' : '';
    return splits.map((v) => formatBytes(v, byteUnitOfAxis, digits) + suffix);
  }

  function formatValue(unit, value) {
    if (value == null || Number.isNaN(value)) return '–';
    if (unit === 'ratio') return (value * 100).toFixed(value !== 0 && value < 0.1 ? 1 : 0) + ' %';
    if (unit === 'bytes') return formatBytes(value);
    if (unit === 'bytes/s') return formatBytes(value) + '/s';
    if (unit === 'ms') return value.toFixed(1) + ' ms';
    return String(value);
  }

  // "2026-11-30T05:28:11.123Z": RFC 3339 in UTC to the millisecond (a 1 ms recording's
  // precision), as the header's times are written.
  function formatTime(seconds) {
    if (seconds == null) return '–';
    return new Date(Math.round(seconds * 1000)).toISOString();
  }

  // The time axis in the header's format and zone (UTC, 24 h): "05:28:11", with milliseconds when
  // the ticks are closer than a second, and the date above the first tick and where the day changes.
  function timeAxisValues(u, splits, axisIdx, space, incr) {
    let day = null;
    return splits.map((seconds) => {
      if (seconds == null) return null;
      const iso = new Date(Math.round(seconds * 1000)).toISOString();
      const clock = incr < 1 ? iso.slice(11, 23) : incr < 60 ? iso.slice(11, 19) : iso.slice(11, 16);
      const date = iso.slice(0, 10);
      const text = date !== day ? date + '\n' + clock : clock;
      day = date;
      return text;
    });
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text != null) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function fillHeader() {
    document.getElementById('title').textContent = data.title;
    const details = document.getElementById('details');
    for (const [key, value] of data.details) {
      details.appendChild(element('dt', key));
      details.appendChild(element('dd', value));
    }
    let note = data.frames + ' frames at ' + data.resolution_seconds * 1000 + ' ms';
    if (data.bucket_ticks > 1) {
      note += '; downsampled to fit the page: each point is the maximum over ' +
        data.bucket_ticks + ' ticks (narrow the window for full resolution)';
    } else {
      note += ', full resolution';
    }
    note += '. Lines are the mean over one pixel, the band around each its minimum and maximum ' +
      '(zoom in for every tick). Times are UTC; flightrec ' + data.flightrec_version + ' on ' +
      data.host + '.';
    document.getElementById('note').textContent = note;
    fillLabels();
  }

  // An alert's labels, one row each.
  function fillLabels() {
    const labels = data.labels || [];
    if (labels.length === 0) return;
    const table = document.getElementById('labels');
    table.hidden = false;
    const body = table.querySelector('tbody');
    for (const [name, value] of labels) {
      const tr = document.createElement('tr');
      tr.appendChild(element('td', name, 'label-name'));
      tr.appendChild(element('td', value));
      body.appendChild(tr);
    }
  }

  // A vertical line at `seconds` with `label` beside it, `row` label heights below the top; false
  // when the time is outside the zoomed span.
  function drawMarker(u, seconds, color, label, row) {
    const x = u.valToPos(seconds, 'x', true);
    const { left, top, width, height } = u.bbox;
    if (!(x >= left && x <= left + width)) return false;
    const ratio = window.devicePixelRatio || 1;
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = 2 * ratio;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    ctx.fillStyle = color;
    ctx.font = 12 * ratio + 'px sans-serif';
    ctx.fillText(label, x + 4 * ratio, top + (14 + 16 * row) * ratio);
    ctx.restore();
    return true;
  }

  // A dashed horizontal line at the rule's threshold on the chart of its signal.
  function drawThreshold(u, unit) {
    const y = u.valToPos(data.threshold.value, 'y', true);
    const { left, top, width, height } = u.bbox;
    if (!(y >= top && y <= top + height)) return;
    const ratio = window.devicePixelRatio || 1;
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = THRESHOLD_COLOR;
    ctx.lineWidth = 2 * ratio;
    ctx.setLineDash([8 * ratio, 4 * ratio]);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
    ctx.fillStyle = THRESHOLD_COLOR;
    ctx.font = 12 * ratio + 'px sans-serif';
    ctx.textAlign = 'right';
    ctx.fillText('threshold ' + formatValue(unit, data.threshold.value) + ': ' + data.threshold.label,
      left + width - 4 * ratio, y - 4 * ratio);
    ctx.restore();
    state.thresholdDraws++;
  }

  function drawMarkers(u) {
    if (data.trigger != null && drawMarker(u, data.trigger, TRIGGER_COLOR, 'trigger', 0)) {
      state.markerDraws++;
    }
    // The kill comes a source step or so before the rule fires: its label goes on a second row.
    if (data.oom != null && drawMarker(u, data.oom.killed_at, OOM_COLOR, oomLabel(), 1)) {
      state.oomMarkerDraws++;
    }
  }

  function oomLabel() {
    return data.oom.victim ? 'OOM kill: ' + data.oom.victim : 'OOM kill';
  }

  // Rates from zero (ratios up to 100 %), levels (memory) around their own span; with a margin so
  // that a line resting at an end is drawn inside the plot rather than on its edge. `threshold`,
  // when given, is kept inside the range.
  function valueRange(unit, min, max, threshold) {
    if (threshold != null) {
      min = min == null ? threshold : Math.min(min, threshold);
      max = max == null ? threshold : Math.max(max, threshold);
    }
    if (unit === 'bytes' && min != null && max != null) {
      const margin = Math.max((max - min) * 0.05, Math.abs(max) * 0.001, 1);
      return [min - margin, max + margin];
    }
    const top = unit === 'ratio' ? 1 : max > 0 ? max : 1;
    return [-0.02 * top, 1.04 * top];
  }

  let syncing = false;
  function followZoom(source) {
    if (syncing) return;
    syncing = true;
    const { min, max } = source.scales.x;
    for (const chart of state.charts) {
      if (chart.plot !== source) chart.plot.setScale('x', { min, max });
    }
    syncing = false;
  }

  function chartWidth() {
    return Math.max(320, document.getElementById('charts').clientWidth - 8);
  }

  // uPlot paths for a line of many more ticks than pixels: per one-pixel bucket of the visible span,
  // the mean as the line and the minimum to the maximum as a band (the fill), so a signal that flips
  // every tick reads as its level with its spread rather than as a solid comb. With a pixel or more
  // per tick the ticks are drawn as they are, without a band. `stats` records what was drawn.
  function bucketPaths(stats) {
    return (u, seriesIdx, i0, i1) => {
      const xs = u.data[0];
      const ys = u.data[seriesIdx];
      const ratio = window.devicePixelRatio || 1;
      const line = new Path2D();
      const band = new Path2D();
      const ticks = i1 - i0 + 1;
      const raw = ticks <= u.bbox.width / ratio;
      let open = false;
      let buckets = 0;
      if (raw) {
        for (let i = i0; i <= i1; i++) {
          if (ys[i] == null) { open = false; continue; }
          const x = u.valToPos(xs[i], 'x', true);
          const y = u.valToPos(ys[i], 'y', true);
          if (open) line.lineTo(x, y); else line.moveTo(x, y);
          open = true;
        }
      } else {
        // Runs of buckets with values; each run is a line and a band polygon.
        let run = [];
        const close = () => {
          if (run.length === 0) return;
          run.forEach((b, k) => (k === 0 ? line.moveTo(b.x, b.mean) : line.lineTo(b.x, b.mean)));
          band.moveTo(run[0].x, run[0].max);
          for (const b of run) band.lineTo(b.x, b.max);
          for (let k = run.length - 1; k >= 0; k--) band.lineTo(run[k].x, run[k].min);
          band.closePath();
          buckets += run.length;
          run = [];
        };
        let bucket = null;
        let sum = 0;
        let count = 0;
        let lo = Infinity;
        let hi = -Infinity;
        let first = 0;
        const flush = () => {
          if (count === 0) { close(); return; }
          run.push({
            x: u.valToPos(first, 'x', true),
            mean: u.valToPos(sum / count, 'y', true),
            min: u.valToPos(lo, 'y', true),
            max: u.valToPos(hi, 'y', true),
          });
        };
        for (let i = i0; i <= i1; i++) {
          const b = Math.floor(u.valToPos(xs[i], 'x', true) / ratio);
          if (b !== bucket) {
            if (bucket != null) flush();
            bucket = b;
            sum = 0; count = 0; lo = Infinity; hi = -Infinity; first = xs[i];
          }
          const v = ys[i];
          if (v == null) continue;
          sum += v; count++;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        if (bucket != null) flush();
        close();
      }
      stats.raw = raw;
      stats.bandBuckets[seriesIdx - 1] = buckets;
      return { stroke: line, fill: raw ? null : band, clip: null, band: null, gaps: null, flags: 0 };
    };
  }

  function withAlpha(hex, alpha) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return 'rgba(' + r + ',' + g + ',' + b + ',' + alpha + ')';
  }

  // One uPlot chart in `section` over `xs` (Unix seconds), joined to the others' cursor and zoom
  // and marked with the trigger; `bars` draws its first line as bars (a period strip).
  function addChart(section, id, chart, xs, bars) {
    const series = [{ value: (u, v) => formatTime(v) }];
    const stats = { raw: true, bandBuckets: chart.lines.map(() => 0) };
    const threshold = data.threshold != null && data.threshold.chart === id ? data.threshold : null;
    chart.lines.forEach((line, i) => {
      const color = COLORS[i % COLORS.length];
      const options = {
        label: line.label,
        stroke: color,
        width: 1,
        points: { show: false },
        value: (u, v) => formatValue(chart.unit, v),
      };
      if (bars && i === 0) {
        options.fill = color;
        options.paths = uPlot.paths.bars({ size: [1, 100], align: 1 });
      } else {
        options.fill = withAlpha(color, BAND_ALPHA);
        options.paths = bucketPaths(stats);
      }
      series.push(options);
    });
    const draw = [drawMarkers];
    if (threshold != null) draw.unshift((u) => drawThreshold(u, chart.unit));
    const plot = new uPlot({
      width: chartWidth(),
      height: CHART_HEIGHT,
      series,
      scales: {
        x: { time: true },
        y: { range: (u, min, max) => valueRange(chart.unit, min, max, threshold && threshold.value) },
      },
      axes: [
        { label: 'UTC', labelSize: 20, size: 44, values: timeAxisValues },
        { size: 80, values: (u, splits) => axisValues(chart.unit, splits) },
      ],
      cursor: { sync: { key: 'flightrec' }, drag: { x: true, y: false } },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
      hooks: {
        draw,
        setScale: [(u, key) => { if (key === 'x') followZoom(u); }],
      },
    }, [xs].concat(chart.lines.map((line) => line.values)), section);
    state.charts.push({ id, plot, lines: chart.lines.length, stats, threshold: threshold != null });
  }

  function drawCharts() {
    const container = document.getElementById('charts');
    for (const chart of data.charts) {
      const section = element('section', null, 'chart');
      section.id = 'chart-' + chart.id;
      section.appendChild(element('h2', chart.title));
      container.appendChild(section);
      addChart(section, chart.id, chart, times, false);
    }
    window.addEventListener('resize', () => {
      for (const chart of state.charts) chart.plot.setSize({ width: chartWidth(), height: CHART_HEIGHT });
    });
  }

  // Growth with its sign: "+1.5 GiB", "-12.0 MiB", "0 B".
  function formatGrowth(bytes) {
    if (bytes == null) return '–';
    return (bytes > 0 ? '+' : '') + formatBytes(bytes);
  }

  // The table's columns: the row's field, how it reads, its cell's class. Text columns sort A to Z
  // on a first click, numbers biggest first.
  const PROCESS_COLUMNS = [
    { key: 'pid', text: (r) => String(r.pid), className: 'number', numeric: true },
    { key: 'comm', text: (r) => r.comm, className: 'comm' },
    { key: 'state', text: (r) => r.state, className: '' },
    { key: 'cpu', text: (r) => formatValue('ratio', r.cpu), className: 'number', numeric: true },
    { key: 'rss', text: (r) => formatBytes(r.rss), className: 'number', numeric: true },
    { key: 'growth', text: (r) => formatGrowth(r.growth), className: 'number', numeric: true },
    { key: 'read', text: (r) => formatValue('bytes/s', r.read), className: 'number', numeric: true },
    { key: 'write', text: (r) => formatValue('bytes/s', r.write), className: 'number', numeric: true },
    { key: 'tx', text: (r) => formatValue('bytes/s', r.tx), className: 'number', numeric: true },
    { key: 'rx', text: (r) => formatValue('bytes/s', r.rx), className: 'number', numeric: true },
    { key: 'cmdline', text: (r) => r.cmdline, className: 'cmdline' },
  ];

  // Rows by `column`, descending or not; rows without the value (null) last either way, ties by
  // pid.
  function sortRows(rows, column, descending) {
    const sign = descending ? -1 : 1;
    return rows.slice().sort((a, b) => {
      const x = a[column.key];
      const y = b[column.key];
      if (x == null || y == null) return x == null && y == null ? a.pid - b.pid : x == null ? 1 : -1;
      const order = column.numeric ? x - y : String(x).localeCompare(String(y));
      return order !== 0 ? sign * order : a.pid - b.pid;
    });
  }

  function showProcesses(table, rows, key, descending) {
    const column = PROCESS_COLUMNS.find((c) => c.key === key);
    state.processSort = { key, descending };
    for (const th of table.querySelectorAll('thead th')) {
      const sorted = th.dataset.key === key;
      th.setAttribute('aria-sort', sorted ? (descending ? 'descending' : 'ascending') : 'none');
    }
    const body = table.querySelector('tbody');
    body.replaceChildren();
    for (const row of sortRows(rows, column, descending)) {
      const tr = document.createElement('tr');
      for (const c of PROCESS_COLUMNS) tr.appendChild(element('td', c.text(row), c.className));
      tr.lastChild.title = row.cmdline;
      body.appendChild(tr);
    }
  }

  function fillProcesses() {
    const processes = data.processes;
    const note = document.getElementById('processes-note');
    const table = document.getElementById('processes-table');
    if (processes.rows.length === 0) {
      note.textContent = 'No process samples in this recording.';
      table.hidden = true;
      return;
    }
    const around = data.oom != null ? ' (around the OOM kill)'
      : data.trigger == null ? ' (around the CPU peak)' : ' (around the trigger)';
    let text = 'Compared between ' + formatTime(processes.from) + ' and ' +
      formatTime(processes.to) + around + '. CPU 100 % is one CPU busy throughout.';
    if (processes.growth_from != null) {
      text += ' RSS growth: from the first to the last process frame of the window holding the ' +
        'process (' + formatTime(processes.growth_from) + ' to ' + formatTime(processes.growth_to) + ').';
    }
    text += processes.sort === 'rss' ? ' Sorted by memory (RSS), what the rule watches;'
      : ' Sorted by CPU;';
    text += ' click a heading to sort by it, again to reverse.';
    note.textContent = text;
    let key = processes.sort === 'rss' ? 'rss' : 'cpu';
    let descending = true;
    for (const th of table.querySelectorAll('thead th')) {
      th.tabIndex = 0;
      const sortBy = () => {
        const column = PROCESS_COLUMNS.find((c) => c.key === th.dataset.key);
        descending = th.dataset.key === key ? !descending : !!column.numeric;
        key = th.dataset.key;
        showProcesses(table, processes.rows, key, descending);
      };
      th.addEventListener('click', sortBy);
      th.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); sortBy(); }
      });
    }
    showProcesses(table, processes.rows, key, descending);
  }

  // The kill's biggest resident sets, as the incident's oom.top_rss.N details name them.
  function fillOom() {
    if (data.oom == null) return;
    document.getElementById('oom').hidden = false;
    const note = document.getElementById('oom-note');
    const rows = data.oom.top_rss;
    if (rows.length === 0) {
      note.textContent = oomLabel() + ' at ' + formatTime(data.oom.killed_at) +
        '; no process frame before it in the window.';
      document.getElementById('oom-table').hidden = true;
      return;
    }
    note.textContent = oomLabel() + ' at ' + formatTime(data.oom.killed_at) +
      '; resident sets from the process frame of ' + formatTime(data.oom.top_rss_at) + '.';
    const body = document.querySelector('#oom-table tbody');
    for (const row of rows) {
      const tr = document.createElement('tr');
      tr.appendChild(element('td', String(row.pid), 'number'));
      tr.appendChild(element('td', row.comm, 'comm'));
      tr.appendChild(element('td', formatBytes(row.rss), 'number'));
      body.appendChild(tr);
    }
  }

  // One section per container the incident involves (data.containers, chosen by the server):
  // its limits, the throttled ms of each CFS period as bars (the period strip) and its memory
  // against its limit and memory.high.
  function fillContainers() {
    const containers = data.containers || [];
    if (containers.length === 0) return;
    document.getElementById('containers').hidden = false;
    document.getElementById('containers-note').textContent = 'The containers throttled or with ' +
      'memory events in the window, the busiest by CPU and by memory, or every one when they are ' +
      'few: ' + containers.length + '. Each says why it is shown.';
    const list = document.getElementById('containers-list');
    containers.forEach((c, index) => {
      const section = element('section', null, 'container');
      section.id = 'container-' + index;
      section.appendChild(element('h3', c.name));
      const facts = document.createElement('dl');
      const fact = (key, value) => {
        facts.appendChild(element('dt', key));
        facts.appendChild(element('dd', value));
      };
      fact('shown for', c.reasons.join(', '));
      const period = Math.round(c.period_seconds * 1000) + ' ms';
      fact('CPU quota', c.quota_cores == null ? 'none'
        : c.quota_cores.toFixed(2) + ' CPUs (per ' + period + ' period)');
      fact('throttled', c.throttled_periods + ' of ' + c.periods + ' periods');
      fact('memory limit', c.memory_limit == null ? 'none' : formatBytes(c.memory_limit));
      if (c.memory_high != null) fact('memory.high', formatBytes(c.memory_high));
      fact('memory.events', 'high ' + c.events.high + ', max ' + c.events.max + ', oom_kill ' +
        c.events.oom_kill);
      if (c.image) fact('image', c.image);
      fact('cgroup', c.path);
      section.appendChild(facts);
      list.appendChild(section);
      if (c.strip.t.length > 0) {
        section.appendChild(element('h4', 'Throttled per ' + period + ' period (' + c.strip.source + ')'));
        addChart(section, 'container-' + index + '-strip', {
          unit: 'ms', lines: [{ label: 'throttled', values: c.strip.throttled_ms }],
        }, Float64Array.from(c.strip.t), true);
      } else {
        section.appendChild(element('p', c.quota_cores == null
          ? 'No CPU quota: never throttled.' : 'No read of its periods in the window.', 'help'));
      }
      const lines = [{ label: 'usage', values: c.memory }];
      if (c.memory_limit != null) lines.push({ label: 'limit', values: c.memory.map(() => c.memory_limit) });
      if (c.memory_high != null) lines.push({ label: 'high', values: c.memory.map(() => c.memory_high) });
      section.appendChild(element('h4', 'Memory'));
      addChart(section, 'container-' + index + '-memory', { unit: 'bytes', lines }, Float64Array.from(c.t), false);
    });
  }

  fillHeader();
  drawCharts();
  fillProcesses();
  fillOom();
  fillContainers();
  state.ready = true;
})();
