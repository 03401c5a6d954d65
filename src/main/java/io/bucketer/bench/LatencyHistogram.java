package io.bucketer.bench;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Prometheus histogram of latencies in seconds as a processor exposes it: cumulative counts per
 * upper bound since the processor started. The difference of two of them holds what was recorded
 * between the two scrapes, so a benchmark can leave its first part out.
 */
record LatencyHistogram(SortedMap<Double, Double> cumulative) {

  static final LatencyHistogram EMPTY = new LatencyHistogram(new TreeMap<>());

  LatencyHistogram {
    cumulative = new TreeMap<>(cumulative);
  }

  /** What was recorded after {@code earlier}, a scrape of the same histogram before this one. */
  LatencyHistogram since(final LatencyHistogram earlier) {
    final SortedMap<Double, Double> recent = new TreeMap<>();
    for (final Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      recent.put(
          bucket.getKey(),
          bucket.getValue() - earlier.cumulative().getOrDefault(bucket.getKey(), 0.0));
    }
    return new LatencyHistogram(recent);
  }

  /** Latencies recorded. */
  long count() {
    return cumulative.isEmpty() ? 0 : Math.round(cumulative.get(cumulative.lastKey()));
  }

  /**
   * The upper bound, in milliseconds, of the bucket that holds the {@code quantile}: at least that
   * share of the latencies were at most this long. The buckets' resolution bounds the answer's;
   * infinite when the quantile lies beyond the last finite bound; NaN when nothing was recorded.
   */
  double quantileMillis(final double quantile) {
    final long count = count();
    if (count == 0) {
      return Double.NaN;
    }
    for (final Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= quantile * count) {
        return bucket.getKey() * 1000.0;
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /**
   * The {@code quantile} as a reader takes it: {@code <= N ms}, or {@code > N ms} when it lies past
   * the last finite bound N, or {@code -} when nothing was recorded.
   */
  String describe(final double quantile) {
    final double millis = quantileMillis(quantile);
    if (Double.isNaN(millis)) {
      return "-";
    }
    if (Double.isInfinite(millis)) {
      final double lastFinite =
          cumulative.headMap(Double.POSITIVE_INFINITY).isEmpty()
              ? 0
              : cumulative.headMap(Double.POSITIVE_INFINITY).lastKey();
      return String.format("> %,.0f ms", lastFinite * 1000.0);
    }
    return String.format("<= %,.0f ms", millis);
  }
}
