// The incident viewer page. Reads the inline JSON (#flightrec-data, layout in docs/VIEWER.md),
// draws one uPlot chart per signal group with the trigger (and an OOM kill) marked, zooms every
// chart together and fills the process tables. Recorded strings (process names, command lines) only ever reach the
// page as text (textContent), never as HTML.
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('flightrec-data').textContent);
  const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173'];
  const TRIGGER_COLOR = '#d62728';
  const OOM_COLOR = '#7b2cbf';
  const CHART_HEIGHT = 240;

  // What the browser test and a curious user can inspect: every chart and its uPlot instance.
  const state = {
    charts: [], trigger: data.trigger, markerDraws: 0, oom: data.oom, oomMarkerDraws: 0, ready: false,
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

  // "2026-11-30 05:28:11.123" (UTC), the precision of a 1 ms recording.
  function formatTime(seconds) {
    if (seconds == null) return '–';
    return new Date(Math.round(seconds * 1000)).toISOString().replace('T', ' ').slice(0, 23);
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
    note += '. Times are UTC; flightrec ' + data.flightrec_version + ' on ' + data.host + '.';
    document.getElementById('note').textContent = note;
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
  // that a line resting at an end is drawn inside the plot rather than on its edge.
  function valueRange(unit, min, max) {
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

  // One uPlot chart in `section` over `xs` (Unix seconds), joined to the others' cursor and zoom
  // and marked with the trigger; `bars` draws its first line as bars (a period strip).
  function addChart(section, id, chart, xs, bars) {
    const series = [{ value: (u, v) => formatTime(v) }];
    chart.lines.forEach((line, i) => {
      const options = {
        label: line.label,
        stroke: COLORS[i % COLORS.length],
        width: 1,
        points: { show: false },
        value: (u, v) => formatValue(chart.unit, v),
      };
      if (bars && i === 0) {
        options.fill = COLORS[i % COLORS.length];
        options.paths = uPlot.paths.bars({ size: [1, 100], align: 1 });
      }
      series.push(options);
    });
    const plot = new uPlot({
      width: chartWidth(),
      height: CHART_HEIGHT,
      series,
      scales: { x: { time: true }, y: { range: (u, min, max) => valueRange(chart.unit, min, max) } },
      axes: [{}, { size: 80, values: (u, splits) => axisValues(chart.unit, splits) }],
      cursor: { sync: { key: 'flightrec' }, drag: { x: true, y: false } },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
      hooks: {
        draw: [drawMarkers],
        setScale: [(u, key) => { if (key === 'x') followZoom(u); }],
      },
    }, [xs].concat(chart.lines.map((line) => line.values)), section);
    state.charts.push({ id, plot, lines: chart.lines.length });
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
    note.textContent = 'Compared between ' + formatTime(processes.from) + ' and ' +
      formatTime(processes.to) + ' UTC' + around +
      '. CPU 100 % is one CPU busy throughout.';
    const body = table.querySelector('tbody');
    for (const row of processes.rows) {
      const tr = document.createElement('tr');
      const cells = [
        [String(row.pid), 'number'],
        [row.comm, 'comm'],
        [row.state, ''],
        [formatValue('ratio', row.cpu), 'number'],
        [formatBytes(row.rss), 'number'],
        [formatValue('bytes/s', row.read), 'number'],
        [formatValue('bytes/s', row.write), 'number'],
        [formatValue('bytes/s', row.tx), 'number'],
        [formatValue('bytes/s', row.rx), 'number'],
        [row.cmdline, 'cmdline'],
      ];
      for (const [text, className] of cells) tr.appendChild(element('td', text, className));
      tr.lastChild.title = row.cmdline;
      body.appendChild(tr);
    }
  }

  // The kill's biggest resident sets, as the incident's oom.top_rss.N details name them.
  function fillOom() {
    if (data.oom == null) return;
    document.getElementById('oom').hidden = false;
    const note = document.getElementById('oom-note');
    const rows = data.oom.top_rss;
    if (rows.length === 0) {
      note.textContent = oomLabel() + ' at ' + formatTime(data.oom.killed_at) +
        ' UTC; no process frame before it in the window.';
      document.getElementById('oom-table').hidden = true;
      return;
    }
    note.textContent = oomLabel() + ' at ' + formatTime(data.oom.killed_at) +
      ' UTC; resident sets from the process frame of ' + formatTime(data.oom.top_rss_at) + ' UTC.';
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
