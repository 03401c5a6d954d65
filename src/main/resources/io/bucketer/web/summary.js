// The statistics of the range, under the chart: what /statistics answered, as a person reads it.

const FIELDS = [
  ['count', 'count'],
  ['avg', 'avg'],
  ['min', 'min'],
  ['max', 'max'],
  ['sum', 'sum'],
  ['twa', 'time-weighted avg'],
  ['coverage', 'coverage'],
  ['gaps', 'gaps'],
  ['longest_gap_ms', 'longest gap, ms'],
  ['quantiles.p50', 'p50'],
  ['quantiles.p95', 'p95'],
  ['quantiles.p99', 'p99'],
  ['resends', 'resends'],
  ['late_readings', 'late readings'],
  ['expected', 'readings expected'],
  ['completeness', 'completeness'],
  ['documents_read', 'documents read'],
  ['state_windows_read', 'state windows read'],
];

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/**
 * Fills {@code list} (a dl) with the answer's figures; a field the answer lacks is left out. A
 * field inside an object (quantiles.p95) is shown when the answer has the object's field, as '–'
 * when that is null (quantiles unknown).
 */
export function showStatistics(list, answer) {
  list.classList.remove('error');
  list.replaceChildren();
  for (const [field, label] of FIELDS) {
    const path = field.split('.');
    if (!(path[0] in answer)) {
      continue;
    }
    const entry = document.createElement('div');
    const term = document.createElement('dt');
    const value = document.createElement('dd');
    term.textContent = label;
    value.textContent = formatNumber(
      path.reduce((object, key) => (object == null ? null : object[key] ?? null), answer));
    value.dataset.field = field;
    entry.append(term, value);
    list.append(entry);
  }
}

export function showStatisticsError(list, message) {
  list.classList.add('error');
  list.replaceChildren(message);
}

export function formatNumber(value) {
  return typeof value === 'number' ? NUMBER.format(value) : value === null ? '–' : String(value);
}
