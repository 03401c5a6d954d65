package io.bucketer.buckets;

import java.util.List;

/**
 * A window of one series at one granularity whose readings are complete: its end plus the grace
 * period has passed. Measurements are sorted by time; readings with equal times keep their arrival
 * order.
 */
public record ClosedBucket(
    SeriesKey series,
    Granularity granularity,
    long windowStart,
    BucketStats stats,
    List<Measurement> measurements) {

  public ClosedBucket {
    measurements = List.copyOf(measurements);
    if (stats.count() != measurements.size()) {
      throw new IllegalArgumentException(
          "bucket count " + stats.count() + " != " + measurements.size() + " measurements");
    }
  }

  public long windowEnd() {
    return granularity.windowEnd(windowStart);
  }
}
