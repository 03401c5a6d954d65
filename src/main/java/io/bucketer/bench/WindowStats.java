package io.bucketer.bench;

/**
 * What the windowed-aggregate contender keeps per series and minute: the four figures a team would
 * start with. No measurements, unlike bucketer's buckets.
 */
record WindowStats(long count, double sum, double min, double max) {

  static WindowStats empty() {
    return new WindowStats(0, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
  }

  WindowStats add(final double value) {
    return new WindowStats(count + 1, sum + value, Math.min(min, value), Math.max(max, value));
  }
}
