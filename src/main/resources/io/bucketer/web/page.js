// The page: its state (sensor, metric, granularity, from, to) lives in its URL, so that a link,
// a bookmark or a test opens straight onto a chart; every change is written back to the URL.
// granularity=auto asks the API to pick the resolution for AUTO_POINTS points.

import * as api from './api.js';
import { drawChart, drawMessage } from './chart.js';
import { showStatistics, showStatisticsError } from './summary.js';
import {
  formatSpan,
  fromInputValue,
  isoInstant,
  parseInstant,
  parseSpan,
  toInputValue,
} from './time.js';

const SERIES_LIMIT = 200;
// The most windows a range gets at the granularity picked for it (a day of minutes): finer would
// be unreadable, and a processor refuses more than its query.max.points anyway.
const MAX_WINDOWS = 1440;
const MIN_WINDOWS = 10;
const FILTER_DELAY_MILLIS = 250;
const AUTO = 'auto';
// The points asked for at an automatic resolution: a fixed count rather than the window's pixel
// width, so that a link draws the same points on every screen; about 4 px a point across the
// chart, wide enough for the band and the lines to read.
const AUTO_POINTS = 300;

const page = {
  filter: document.getElementById('sensor-filter'),
  sensor: document.getElementById('sensor'),
  metric: document.getElementById('metric'),
  granularity: document.getElementById('granularity'),
  resolution: document.getElementById('resolution'),
  from: document.getElementById('from'),
  to: document.getElementById('to'),
  seriesMessage: document.getElementById('series-message'),
  status: document.getElementById('status'),
  permalink: document.getElementById('permalink'),
  plot: document.getElementById('plot'),
  statistics: document.getElementById('statistics'),
};

const state = readUrl();
let series = [];
let granularities = [];
// Each drawing has a number; an answer for an older one arrives too late to be drawn.
let drawing = 0;
let drawn = null;

function readUrl() {
  const query = new URLSearchParams(location.search);
  return {
    sensor: query.get('sensor') || null,
    metric: query.get('metric') || null,
    granularity: query.get('granularity') || null,
    from: parseInstant(query.get('from')),
    to: parseInstant(query.get('to')),
  };
}

function writeUrl() {
  const query = new URLSearchParams();
  for (const name of ['sensor', 'metric', 'granularity']) {
    if (state[name]) {
      query.set(name, state[name]);
    }
  }
  for (const name of ['from', 'to']) {
    if (Number.isFinite(state[name])) {
      query.set(name, isoInstant(state[name]));
    }
  }
  history.replaceState(null, '', `${location.pathname}?${query}`);
  page.permalink.href = location.href;
}

function setStatus(name, message) {
  page.status.dataset.state = name;
  page.status.dataset.message = message;
  page.status.textContent = message;
}

/** Writes the state to the URL and draws it, unless that very state is drawn or being drawn. */
function refresh(force = false) {
  writeUrl();
  const key = JSON.stringify(state);
  if (force || key !== drawn) {
    drawn = key;
    draw();
  }
}

async function draw() {
  const number = ++drawing;
  if (!state.sensor) {
    setStatus('idle', series.length ? 'pick a sensor' : 'loading the list of series …');
    return;
  }
  if (!state.granularity) {
    setStatus('idle', 'pick a granularity');
    return;
  }
  if (!(state.from < state.to)) {
    drawMessage(page.plot, 'from must be before to', true);
    page.statistics.replaceChildren();
    setStatus('error', 'from must be before to');
    return;
  }
  setStatus('loading', 'loading …');
  const auto = state.granularity === AUTO;
  const query = {
    sensor: state.sensor,
    metric: state.metric,
    granularity: auto ? undefined : state.granularity,
    maxDataPoints: auto ? AUTO_POINTS : undefined,
    from: isoInstant(state.from),
    to: isoInstant(state.to),
  };
  const range = { from: state.from, to: state.to };
  const [buckets, statistics] = await Promise.allSettled([
    api.buckets(query),
    api.statistics(query),
  ]);
  if (number !== drawing) {
    return;
  }
  const errors = new Set();
  if (buckets.status === 'fulfilled') {
    drawChart(page.plot, buckets.value, range);
    page.resolution.textContent = resolutionOf(buckets.value);
  } else {
    drawMessage(page.plot, buckets.reason.message, true);
    page.resolution.textContent = '';
    errors.add(buckets.reason.message);
  }
  if (statistics.status === 'fulfilled') {
    showStatistics(page.statistics, statistics.value);
  } else {
    showStatisticsError(page.statistics, statistics.reason.message);
    errors.add(statistics.reason.message);
  }
  if (errors.size > 0) {
    setStatus('error', [...errors].join('; '));
  } else {
    const drawnBuckets = buckets.value.buckets;
    const open = drawnBuckets.filter((bucket) => bucket.open).length;
    setStatus(
      'ready',
      `${drawnBuckets.length} buckets drawn, ${open} open · ` +
        `${buckets.value.documents_read} documents read`,
    );
  }
}

/** What an answer at a picked resolution says it read; nothing for one at a given granularity. */
function resolutionOf(answer) {
  const resolution = answer.resolution;
  if (!resolution || typeof resolution !== 'object') {
    return '';
  }
  return (
    `read ${resolution.granularity} windows from ${resolution.read_from}, ` +
    `${formatSpan(resolution.point_ms)} a point` +
    (resolution.widened ? ', widened to stay within query.max.points' : '')
  );
}

async function loadSeries(prefix) {
  try {
    const answer = await api.series(prefix, SERIES_LIMIT);
    if (prefix !== page.filter.value.trim()) {
      return; // the filter changed meanwhile: a newer list is on its way
    }
    series = answer.series;
    granularities = answer.granularities;
    page.seriesMessage.textContent =
      series.length === 0
        ? 'no series' + (prefix ? ` starting with "${prefix}"` : '')
        : series.length >= SERIES_LIMIT
          ? `first ${SERIES_LIMIT}: filter to narrow`
          : '';
  } catch (failure) {
    page.seriesMessage.textContent = `list of series: ${failure.message}`;
    if (!state.sensor) {
      setStatus('error', `list of series: ${failure.message}`);
    }
    return;
  }
  if (!state.sensor && series.length > 0) {
    state.sensor = series[0].sensor_id;
    state.metric = series[0].metric;
  }
  if (!state.granularity) {
    state.granularity = fittingGranularity();
  }
  showControls();
  refresh();
}

/** The finest granularity that splits the range into at most MAX_WINDOWS windows. */
function fittingGranularity() {
  const span = state.to - state.from;
  return (
    granularities.find((granularity) => span / parseSpan(granularity) <= MAX_WINDOWS) ??
    granularities[granularities.length - 1] ??
    null
  );
}

/**
 * After a change of range: the fitting granularity if the chosen one splits it into too many
 * windows to draw, or into too few to show a shape (one 1h window for the last hour).
 */
function fitGranularity() {
  if (state.granularity === AUTO) {
    return; // the API fits an automatic resolution to any range
  }
  const windows = (state.to - state.from) / parseSpan(state.granularity);
  if (!(windows <= MAX_WINDOWS && windows >= MIN_WINDOWS)) {
    state.granularity = fittingGranularity() ?? state.granularity;
  }
}

function metricsOf(sensor) {
  return [...new Set(series.filter((s) => s.sensor_id === sensor).map((s) => s.metric))];
}

function showControls() {
  const sensors = [...new Set(series.map((s) => s.sensor_id))];
  fill(page.sensor, withCurrent(sensors, state.sensor), state.sensor, (id) => id);
  const metrics = withCurrent(metricsOf(state.sensor), state.metric);
  fill(page.metric, metrics.length ? metrics : [null], state.metric, (m) => m ?? '(none)');
  fill(
    page.granularity,
    withCurrent([AUTO, ...granularities], state.granularity),
    state.granularity,
    (g) => (g === AUTO ? `auto (up to ${AUTO_POINTS} points)` : g),
  );
  page.from.value = toInputValue(state.from);
  page.to.value = toInputValue(state.to);
}

/** The URL's choice stays selectable even when the list (filtered, or not loaded yet) lacks it. */
function withCurrent(values, current) {
  return current != null && !values.includes(current) ? [current, ...values] : values;
}

function fill(select, values, selected, label) {
  select.replaceChildren(
    ...values.map((value) => {
      const option = document.createElement('option');
      option.value = value ?? '';
      option.textContent = label(value);
      option.selected = value === selected;
      return option;
    }),
  );
}

/** [now - span, now), "now" rounded up to the minute so that minute windows fall whole. */
function lastSpan(span) {
  const now = Math.ceil(Date.now() / 60_000) * 60_000;
  state.from = now - span;
  state.to = now;
}

function listen() {
  let filterTimer;
  page.filter.addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => loadSeries(page.filter.value.trim()), FILTER_DELAY_MILLIS);
  });
  page.sensor.addEventListener('change', () => {
    state.sensor = page.sensor.value;
    const metrics = metricsOf(state.sensor);
    state.metric = metrics.includes(state.metric) ? state.metric : (metrics[0] ?? null);
    showControls();
    refresh();
  });
  page.metric.addEventListener('change', () => {
    state.metric = page.metric.value || null;
    refresh();
  });
  page.granularity.addEventListener('change', () => {
    state.granularity = page.granularity.value;
    refresh();
  });
  for (const input of [page.from, page.to]) {
    input.addEventListener('change', () => {
      const value = fromInputValue(input.value);
      if (Number.isFinite(value)) {
        state[input.id] = value;
        fitGranularity();
        showControls();
        refresh();
      }
    });
  }
  for (const button of document.querySelectorAll('button[data-last]')) {
    button.addEventListener('click', () => {
      lastSpan(parseSpan(button.dataset.last));
      fitGranularity();
      showControls();
      refresh();
    });
  }
  document.getElementById('refresh').addEventListener('click', () => refresh(true));
  document.getElementById('controls').addEventListener('submit', (event) => event.preventDefault());
}

if (!Number.isFinite(state.from) || !Number.isFinite(state.to)) {
  lastSpan(3_600_000);
}
listen();
showControls();
refresh();
loadSeries('');
