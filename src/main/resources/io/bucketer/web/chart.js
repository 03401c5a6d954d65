// The chart: per bucket, a band from min to max and a line through avg, in plain SVG. Buckets in
// the answer are in start order and only windows with readings are listed, so a gap between two
// buckets is a time without readings: the band and the line break there rather than bridge it.
//
// Beside the avg (the mean of the readings), a second line through twa, the time-weighted
// average: each value weighted by how long it held. It breaks where a bucket has none (documents
// written before it was kept, open windows), so an older series draws as before. A third line, dashed,
// through each bucket's p95 (quantiles.p95, from its stored quantile sketch), breaks likewise where a
// bucket has none. A bucket whose readings cover less than 90 % of its time is shaded: its figures
// stand for part of it only; so is one that holds less than 90 % of the readings expected of it,
// where the metric has an expected interval (its completeness): a sensor that sends less often
// than it should, or drops readings, while its readings still cover the time.
//
// Each bucket is also an invisible column (rect.bucket) carrying its figures in data-* attributes:
// its tooltip on hover, and what a test reads back from the page to check what was drawn.

import { formatSpan } from './time.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 1160;
const HEIGHT = 420;
const PLOT = { left: 70, right: WIDTH - 24, top: 40, bottom: HEIGHT - 50 };
// Dots on the avg line while buckets are this wide (pixels); narrower, they blur into the line.
const MIN_WIDTH_FOR_DOTS = 8;
// Below this covered fraction, or this fraction of the readings expected, a bucket is shaded (the
// legend says "coverage or completeness < 90 %").
const LOW_COVERAGE = 0.9;
const LOW_COMPLETENESS = 0.9;
const TIME_STEPS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
  172800, 604800, 2592000,
].map((seconds) => seconds * 1000);
const MAX_TIME_TICKS = 10;

/**
 * Draws {@code answer} (the API's buckets answer) over {@code range} ({from, to} in epoch millis)
 * into {@code svg}, replacing what was there.
 */
export function drawChart(svg, answer, range) {
  const buckets = answer.buckets.map((bucket) => ({
    ...bucket,
    startMillis: Date.parse(bucket.start),
    endMillis: Date.parse(bucket.end),
  }));
  const root = reset(svg);
  const x = linear(range.from, range.to, PLOT.left, PLOT.right);
  const yTicks = valueTicks(buckets);
  const y = linear(yTicks[0], yTicks[yTicks.length - 1], PLOT.bottom, PLOT.top);

  title(root, answer);
  valueAxis(root, yTicks, y);
  timeAxis(root, range, x);
  const data = element('g', { 'clip-path': 'url(#plot-area)' }, root);
  lowQuality(data, buckets, x);
  const columns = element('g', { class: 'buckets' }, data);
  for (const bucket of buckets) {
    column(columns, bucket, x);
  }
  for (const segment of segments(buckets)) {
    band(data, segment, x, y);
  }
  for (const run of runsOf(buckets, twaOf)) {
    valueLine(data, run, x, y, twaOf, 'twa');
  }
  for (const run of runsOf(buckets, p95Of)) {
    valueLine(data, run, x, y, p95Of, 'p95');
  }
  if (buckets.length > 0 && x(buckets[0].endMillis) - x(buckets[0].startMillis) >= MIN_WIDTH_FOR_DOTS) {
    for (const bucket of buckets) {
      element('circle', {
        class: bucket.open ? 'point open' : 'point',
        cx: round(x(middle(bucket))),
        cy: round(y(bucket.avg)),
        r: 3,
        'pointer-events': 'none',
      }, data);
    }
  }
  openLabels(root, buckets, x);
  if (buckets.length === 0) {
    message(root, 'no readings in this range', false);
  }
}

/** Axes-less chart with a message in the middle: an error, or nothing asked yet. */
export function drawMessage(svg, text, isError) {
  message(reset(svg), text, isError);
}

function reset(svg) {
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.replaceChildren();
  const defs = element('defs', {}, svg);
  const clip = element('clipPath', { id: 'plot-area' }, defs);
  element('rect', {
    x: PLOT.left,
    y: PLOT.top - 1,
    width: PLOT.right - PLOT.left,
    height: PLOT.bottom - PLOT.top + 2,
  }, clip);
  const hatch = element('pattern', {
    id: 'open-hatch',
    patternUnits: 'userSpaceOnUse',
    width: 7,
    height: 7,
    patternTransform: 'rotate(45)',
  }, defs);
  element('rect', { width: 7, height: 7, fill: '#e07b1a', 'fill-opacity': 0.06 }, hatch);
  element('line', { x1: 0, y1: 0, x2: 0, y2: 7, stroke: '#e07b1a', 'stroke-opacity': 0.35, 'stroke-width': 3 }, hatch);
  return svg;
}

function title(root, answer) {
  const series = answer.metric == null ? answer.sensor_id : `${answer.sensor_id} · ${answer.metric}`;
  element('text', { class: 'title', x: PLOT.left, y: 22 }, root).textContent =
    `${series} · ${answer.granularity} buckets`;
}

function message(root, text, isError) {
  element('text', {
    class: isError ? 'message error' : 'message',
    x: (PLOT.left + PLOT.right) / 2,
    y: (PLOT.top + PLOT.bottom) / 2,
    'text-anchor': 'middle',
  }, root).textContent = text;
}

/** The invisible column of one bucket, with its figures: tooltip and test hook. */
function column(parent, bucket, x) {
  const left = x(bucket.startMillis);
  const rect = element('rect', {
    class: bucket.open ? 'bucket open' : 'bucket',
    x: round(left),
    y: PLOT.top,
    width: round(Math.max(1, x(bucket.endMillis) - left)),
    height: PLOT.bottom - PLOT.top,
    'data-start': bucket.start,
    'data-end': bucket.end,
    'data-count': bucket.count,
    'data-min': bucket.min,
    'data-avg': bucket.avg,
    'data-max': bucket.max,
    'data-open': bucket.open === true,
  }, parent);
  // Only known figures become attributes: an older document's null twa is no attribute at all.
  if (known(bucket.twa)) {
    rect.setAttribute('data-twa', String(bucket.twa));
  }
  if (known(bucket.coverage)) {
    rect.setAttribute('data-coverage', String(bucket.coverage));
  }
  if (known(p95Of(bucket))) {
    rect.setAttribute('data-p95', String(p95Of(bucket)));
  }
  // How its readings arrived: absent from an older processor's answer, null where unknown.
  for (const field of ['completeness', 'resends', 'late_readings']) {
    if (known(bucket[field])) {
      rect.setAttribute(`data-${field.replace('_', '-')}`, String(bucket[field]));
    }
  }
  const timeWeighted = [
    known(bucket.twa) ? `twa ${figure(bucket.twa)} (time-weighted avg)` : null,
    known(bucket.coverage) ? `coverage ${percent(bucket.coverage)}` : null,
    known(p95Of(bucket)) ? `p95 ${figure(p95Of(bucket))}` : null,
  ].filter((text) => text !== null);
  const arrival = [
    known(bucket.completeness)
      ? `completeness ${percent(bucket.completeness)} (${bucket.count} of ${figure(bucket.expected)} expected${interval(bucket)})`
      : null,
    known(bucket.resends) ? `resends ${bucket.resends}` : null,
    known(bucket.late_readings) ? `late readings ${bucket.late_readings}` : null,
  ].filter((text) => text !== null);
  element('title', {}, rect).textContent =
    `${bucket.start.replace('T', ' ').replace('Z', ' UTC')}${bucket.open ? ' (open)' : ''}\n` +
    `count ${bucket.count}   min ${figure(bucket.min)}   avg ${figure(bucket.avg)}   max ${figure(bucket.max)}` +
    (timeWeighted.length > 0 ? `\n${timeWeighted.join('   ')}` : '') +
    (arrival.length > 0 ? `\n${arrival.join('   ')}` : '');
}

/**
 * The interval a bucket's readings are expected at, as its tooltip names it: the configured one,
 * or the one its windows learned (a metric whose expected.interval is learned); empty when the
 * answer names neither (an older processor's).
 */
function interval(bucket) {
  if (known(bucket.expected_interval_ms)) {
    return ` at ${formatSpan(bucket.expected_interval_ms)}`;
  }
  return known(bucket.learned_interval_ms)
    ? ` at ${formatSpan(bucket.learned_interval_ms)}, learned`
    : '';
}

/**
 * A light band behind each bucket whose readings cover less than LOW_COVERAGE of its time, or hold
 * less than LOW_COMPLETENESS of the readings expected of it (only where the metric has an expected
 * interval: completeness is null otherwise; and only once the bucket has closed): one band,
 * classed by each reason that holds.
 */
function lowQuality(parent, buckets, x) {
  const shades = element('g', { class: 'coverage' }, parent);
  for (const bucket of buckets) {
    const reasons = [];
    if (known(bucket.coverage) && bucket.coverage < LOW_COVERAGE) {
      reasons.push('low-coverage');
    }
    // An open bucket is still receiving what its whole span expects: not shaded for that.
    if (!bucket.open && known(bucket.completeness) && bucket.completeness < LOW_COMPLETENESS) {
      reasons.push('low-completeness');
    }
    if (reasons.length > 0) {
      const left = x(bucket.startMillis);
      const shade = element('rect', {
        class: reasons.join(' '),
        x: round(left),
        y: PLOT.top,
        width: round(Math.max(1, x(bucket.endMillis) - left)),
        height: PLOT.bottom - PLOT.top,
        'data-start': bucket.start,
      }, shades);
      for (const field of ['coverage', 'completeness']) {
        if (known(bucket[field])) {
          shade.setAttribute(`data-${field}`, String(bucket[field]));
        }
      }
    }
  }
}

function twaOf(bucket) {
  return bucket.twa;
}

/** The bucket's p95; undefined when its answer has no quantiles (no sketch, an older processor). */
function p95Of(bucket) {
  return bucket.quantiles == null ? undefined : bucket.quantiles.p95;
}

/** Runs of adjacent buckets that all have a value: one line each, broken where one has none. */
function runsOf(buckets, valueOf) {
  const runs = [];
  let run = null;
  let previous = null;
  for (const bucket of buckets) {
    if (!known(valueOf(bucket))) {
      run = null;
    } else {
      if (run === null || bucket.startMillis > previous.endMillis) {
        run = [];
        runs.push(run);
      }
      run.push(bucket);
    }
    previous = bucket;
  }
  return runs;
}

function valueLine(parent, run, x, y, valueOf, className) {
  // A lone bucket's value spans its window, as a lone bucket's band does.
  const points =
    run.length === 1
      ? [[x(run[0].startMillis), y(valueOf(run[0]))], [x(run[0].endMillis), y(valueOf(run[0]))]]
      : run.map((bucket) => [x(middle(bucket)), y(valueOf(bucket))]);
  element('path', { class: className, d: path(points), 'data-points': run.length }, parent);
}

/**
 * Runs of buckets drawn as one band: adjacent (no gap) and all open or all closed. A run that
 * follows an adjacent one of the other kind starts at that one's last bucket, so the line goes on.
 */
function segments(buckets) {
  const runs = [];
  let run = null;
  let previous = null;
  for (const bucket of buckets) {
    const adjacent = previous !== null && bucket.startMillis <= previous.endMillis;
    const open = bucket.open === true;
    if (run === null || !adjacent || open !== run.open) {
      run = { open, buckets: adjacent ? [previous] : [] };
      runs.push(run);
    }
    run.buckets.push(bucket);
    previous = bucket;
  }
  return runs;
}

function band(parent, run, x, y) {
  const className = run.open ? 'open' : 'closed';
  let xs;
  let members = run.buckets;
  if (members.length === 1) {
    // A lone bucket: its band spans its window, from start to end.
    members = [members[0], members[0]];
    xs = [x(members[0].startMillis), x(members[0].endMillis)];
  } else {
    xs = members.map((bucket) => x(middle(bucket)));
  }
  const top = members.map((bucket, i) => [xs[i], y(bucket.max)]);
  const bottom = members.map((bucket, i) => [xs[i], y(bucket.min)]).reverse();
  element('path', { class: `band ${className}`, d: `${path([...top, ...bottom])}Z` }, parent);
  element('path', {
    class: `avg ${className}`,
    d: path(members.map((bucket, i) => [xs[i], y(bucket.avg)])),
    'data-points': run.buckets.length,
  }, parent);
}

/** "open" over the first bucket of each run of open ones. */
function openLabels(root, buckets, x) {
  let previousOpen = false;
  for (const bucket of buckets) {
    if (bucket.open && !previousOpen) {
      const at = Math.min(Math.max(x(middle(bucket)), PLOT.left + 16), PLOT.right - 16);
      element('text', {
        class: 'open-label',
        x: round(at),
        y: PLOT.top - 6,
        'text-anchor': 'middle',
      }, root).textContent = 'open';
    }
    previousOpen = bucket.open === true;
  }
}

function valueAxis(root, ticks, y) {
  const grid = element('g', { class: 'grid' }, root);
  const axis = element('g', { class: 'axis' }, root);
  const decimals = decimalsOf(ticks.length > 1 ? ticks[1] - ticks[0] : 1);
  for (const tick of ticks) {
    const at = round(y(tick));
    element('line', { x1: PLOT.left, x2: PLOT.right, y1: at, y2: at }, grid);
    element('text', { x: PLOT.left - 8, y: at + 4, 'text-anchor': 'end' }, axis).textContent =
      tick.toFixed(decimals);
  }
  element('line', { x1: PLOT.left, x2: PLOT.left, y1: PLOT.top, y2: PLOT.bottom }, axis);
}

function timeAxis(root, range, x) {
  const grid = element('g', { class: 'grid' }, root);
  const axis = element('g', { class: 'axis' }, root);
  element('line', { x1: PLOT.left, x2: PLOT.right, y1: PLOT.bottom, y2: PLOT.bottom }, axis);
  const span = range.to - range.from;
  const step = TIME_STEPS.find((candidate) => span / candidate <= MAX_TIME_TICKS) ?? span;
  let previousDay = null;
  for (let tick = Math.ceil(range.from / step) * step; tick <= range.to; tick += step) {
    const at = round(x(tick));
    const iso = new Date(tick).toISOString();
    const day = iso.slice(0, 10);
    element('line', { x1: at, x2: at, y1: PLOT.top, y2: PLOT.bottom }, grid);
    element('line', { x1: at, x2: at, y1: PLOT.bottom, y2: PLOT.bottom + 5 }, axis);
    const label = element('text', { x: at, y: PLOT.bottom + 19, 'text-anchor': 'middle' }, axis);
    if (step >= 86_400_000) {
      label.textContent = day;
    } else {
      label.textContent = step < 60_000 ? iso.slice(11, 19) : iso.slice(11, 16);
      if (day !== previousDay) {
        // The date under the first tick and wherever the day changes.
        element('tspan', { x: at, dy: 15 }, label).textContent = day;
      }
    }
    previousDay = day;
  }
  element('text', { x: PLOT.right, y: PLOT.bottom + 40, 'text-anchor': 'end' }, axis).textContent =
    'UTC';
}

/** Round ticks covering every min and max, with a little room above and below. */
function valueTicks(buckets) {
  if (buckets.length === 0) {
    return [0, 0.5, 1];
  }
  // twa too: a value carried in from before a window weighs in its twa, not in its min or max; and
  // p95, which a sketch answers within its accuracy, so a little above the max at most.
  const lines = buckets.flatMap((bucket) => [bucket.twa, p95Of(bucket)]).filter(known);
  let low = Math.min(...buckets.map((bucket) => bucket.min), ...lines);
  let high = Math.max(...buckets.map((bucket) => bucket.max), ...lines);
  const pad = high > low ? (high - low) * 0.05 : Math.max(Math.abs(high) * 0.05, 1);
  low -= pad;
  high += pad;
  const step = niceStep((high - low) / 6);
  const ticks = [];
  for (let tick = Math.floor(low / step) * step; tick < high + step / 2; tick += step) {
    ticks.push(Number(tick.toFixed(12)));
  }
  return ticks;
}

function niceStep(rough) {
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

function decimalsOf(step) {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

function linear(domainLow, domainHigh, rangeLow, rangeHigh) {
  const factor = (rangeHigh - rangeLow) / (domainHigh - domainLow || 1);
  return (value) => rangeLow + (value - domainLow) * factor;
}

function middle(bucket) {
  return (bucket.startMillis + bucket.endMillis) / 2;
}

function path(points) {
  return points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${round(px)},${round(py)}`).join('');
}

function round(value) {
  return Math.round(value * 10) / 10;
}

function figure(value) {
  return typeof value === 'number' ? String(Number(value.toFixed(4))) : String(value);
}

function known(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

function percent(fraction) {
  return `${Number((fraction * 100).toFixed(1))} %`;
}

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [attribute, value] of Object.entries(attributes)) {
    node.setAttribute(attribute, String(value));
  }
  parent.appendChild(node);
  return node;
}
