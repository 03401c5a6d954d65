package io.bucketer.testing;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/** Readings of one series and the buckets the topology would close for them, for read tests. */
public final class SeriesBuckets {

  private SeriesBuckets() {}

  /** About one reading a second from {@code start}, with jitter: some minutes hold 59 or 61. */
  public static List<Measurement> readings(
      final SeriesKey series, final long start, final int count) {
    final SplittableRandom random = new SplittableRandom(series.sensorId().hashCode());
    final List<Measurement> readings = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final long timestamp = start + i * 1_000L + random.nextLong(0, 999);
      readings.add(
          new Measurement(timestamp, Math.round(random.nextDouble(-10, 40) * 100) / 100.0));
    }
    return readings;
  }

  /** Every window of every granularity, closed at revision 0, split at 1000 measurements. */
  public static List<ClosedBucket> closed(
      final SeriesKey series,
      final List<Granularity> granularities,
      final List<Measurement> readings) {
    final List<ClosedBucket> buckets = new ArrayList<>();
    for (final Granularity granularity : granularities) {
      final Map<Long, List<Measurement>> windows = new TreeMap<>();
      for (final Measurement reading : readings) {
        windows
            .computeIfAbsent(granularity.windowStart(reading.timestamp()), s -> new ArrayList<>())
            .add(reading);
      }
      windows.forEach(
          (start, measurements) ->
              buckets.addAll(
                  ClosedBucket.ofWindow(
                      series,
                      granularity,
                      start,
                      BucketStats.ofAll(measurements, null),
                      measurements,
                      0,
                      1000)));
    }
    return buckets;
  }
}
