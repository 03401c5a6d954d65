// Instants, spans and the page's UTC inputs. Every time on the page is UTC, as the API's are:
// a chart of buckets must not shift with the browser's time zone.

const UNIT_MILLIS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a span as the processor spells granularities: 90s, 1m, 1h, 1d; NaN if not one. */
export function parseSpan(text) {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(String(text ?? '').trim().toLowerCase());
  return match ? Number(match[1]) * UNIT_MILLIS[match[2]] : NaN;
}

/** A span in the largest unit that divides it: 900000 as 15m, 90000 as 90s. */
export function formatSpan(millis) {
  for (const unit of ['d', 'h', 'm', 's']) {
    if (millis >= UNIT_MILLIS[unit] && millis % UNIT_MILLIS[unit] === 0) {
      return `${millis / UNIT_MILLIS[unit]}${unit}`;
    }
  }
  return `${millis}ms`;
}

/** An ISO-8601 instant, without milliseconds when there are none: 2026-11-22T14:00:00Z. */
export function isoInstant(millis) {
  return new Date(millis).toISOString().replace('.000Z', 'Z');
}

/** Epoch milliseconds of an ISO-8601 instant; one without an offset is read as UTC. NaN if none. */
export function parseInstant(text) {
  if (!text) {
    return NaN;
  }
  const hasOffset = /(Z|[+-]\d\d:?\d\d)$/i.test(text);
  return Date.parse(hasOffset ? text : `${text}Z`);
}

/** The value of a datetime-local input showing {@code millis} in UTC, to the second. */
export function toInputValue(millis) {
  return Number.isFinite(millis) ? new Date(millis).toISOString().slice(0, 19) : '';
}

/** Epoch milliseconds of a datetime-local input's value, read as UTC; NaN if empty. */
export function fromInputValue(value) {
  return value ? parseInstant(value.length === 16 ? `${value}:00` : value) : NaN;
}
