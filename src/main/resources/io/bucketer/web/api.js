// The processor's query API. Paths are relative to the page (/ui/), so that the page also works
// behind a reverse proxy that serves the processor under a path of its own.

const API = new URL('../api/v1/', document.baseURI);

/** An answer other than 200, or no answer: {@code message} is what the page shows. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** GET /api/v1/series: the series ({sensor_id, metric}) and the granularities, finest first. */
export function series(prefix, limit) {
  return getJson('series', { limit, prefix: prefix || undefined });
}

/**
 * GET /api/v1/series/{sensor_id}/buckets over [from, to): at {@code granularity}, or at the
 * resolution the API picks for at most {@code maxDataPoints} points.
 */
export function buckets(query) {
  return getJson(`series/${encodeURIComponent(query.sensor)}/buckets`, {
    metric: query.metric ?? undefined,
    granularity: query.granularity,
    maxDataPoints: query.maxDataPoints,
    from: query.from,
    to: query.to,
  });
}

/** GET /api/v1/series/{sensor_id}/statistics over [from, to). */
export function statistics(query) {
  return getJson(`series/${encodeURIComponent(query.sensor)}/statistics`, {
    metric: query.metric ?? undefined,
    from: query.from,
    to: query.to,
  });
}

async function getJson(path, parameters) {
  // encodeURIComponent, not URLSearchParams: a space goes as %20, as in the API's contract.
  const query = Object.entries(parameters)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const url = new URL(path + (query ? `?${query}` : ''), API);
  let response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch (failure) {
    throw new ApiError(0, `cannot reach the processor at ${url.origin}: ${failure.message}`);
  }
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: an answer from something other than the API, shown as it is below
  }
  if (!response.ok) {
    const retry = response.headers.get('Retry-After');
    const message =
      body && typeof body.error === 'string'
        ? body.error
        : `HTTP ${response.status}${text.trim() ? `: ${text.trim().split('\n')[0]}` : ''}`;
    throw new ApiError(response.status, retry ? `${message} (retry after ${retry} s)` : message);
  }
  if (body === null || typeof body !== 'object') {
    throw new ApiError(response.status, `${url.pathname} answered something other than JSON`);
  }
  return body;
}
