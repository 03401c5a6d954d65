package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;

/** Builds closed buckets for tests: one reading per second from the window start. */
public final class TestBuckets {

  public static final Granularity MINUTE = Granularity.parse("1m");
  public static final Granularity HOUR = Granularity.parse("1h");

  /** 2023-11-14T22:13:00Z, the start of a minute. */
  public static final long START = 1_699_999_980_000L;

  private TestBuckets() {}

  public static ClosedBucket bucket(
      final String sensorId,
      final String metric,
      final Granularity granularity,
      final long windowStart,
      final Integer utcOffsetMinutes,
      final double... values) {
    final List<Measurement> measurements = new ArrayList<>();
    BucketStats stats = null;
    for (int i = 0; i < values.length; i++) {
      final Measurement measurement = new Measurement(windowStart + i * 1_000L, values[i]);
      measurements.add(measurement);
      stats =
          stats == null
              ? BucketStats.of(measurement, utcOffsetMinutes)
              : stats.add(measurement, utcOffsetMinutes);
    }
    return new ClosedBucket(
        new SeriesKey(sensorId, metric), granularity, windowStart, stats, measurements);
  }

  /** A one-minute temperature bucket with two readings. */
  public static ClosedBucket minute(final String sensorId, final long windowStart) {
    return bucket(sensorId, "temperature", MINUTE, windowStart, null, 20.5, 21.5);
  }
}
