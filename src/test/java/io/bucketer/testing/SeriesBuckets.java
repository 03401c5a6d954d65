package io.bucketer.testing;

import io.bucketer.buckets.BucketLimits;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;

/** Readings of one series and the buckets the topology would close for them, for read tests. */
public final class SeriesBuckets {

  private SeriesBuckets() {}

  /** About one reading a second from {@code start}, with jitter: some minutes hold 59 or 61. */
  public static List<Measurement> readings(
      final SeriesKey series, final long start, final int count) {
    return readings(series, start, count, 1_000);
  }

  /** About one reading every {@code intervalMillis} from {@code start}, with jitter. */
  public static List<Measurement> readings(
      final SeriesKey series, final long start, final int count, final long intervalMillis) {
    final SplittableRandom random = new SplittableRandom(series.sensorId().hashCode());
    final List<Measurement> readings = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final long timestamp = start + i * intervalMillis + random.nextLong(0, intervalMillis - 1);
      readings.add(
          new Measurement(timestamp, Math.round(random.nextDouble(-10, 40) * 100) / 100.0));
    }
    return readings;
  }

  /**
   * Every window of every granularity, closed at revision 0, as the topology closes them by
   * default: the finest with its measurements, split at 1000; the others with the summaries of the
   * windows they are rolled up from.
   */
  public static List<ClosedBucket> closed(
      final SeriesKey series,
      final List<Granularity> granularities,
      final List<Measurement> readings) {
    final RollupPlan plan = new RollupPlan(granularities);
    final List<ClosedBucket> buckets = new ArrayList<>();
    for (final Granularity granularity : plan.granularities()) {
      final Optional<Granularity> source = plan.sourceOf(granularity);
      if (source.isEmpty()) {
        buckets.addAll(withMeasurements(series, granularity, readings));
        continue;
      }
      final Map<Long, List<WindowSummary>> summaries = new TreeMap<>();
      windows(source.get(), readings)
          .forEach(
              (start, measurements) ->
                  summaries
                      .computeIfAbsent(granularity.windowStart(start), s -> new ArrayList<>())
                      .add(
                          new WindowSummary(
                              source.get(), start, BucketStats.ofAll(measurements, null))));
      summaries.forEach(
          (start, finer) ->
              buckets.addAll(
                  ClosedBucket.ofSummaries(
                      series,
                      granularity,
                      start,
                      finer.stream()
                          .map(WindowSummary::stats)
                          .reduce(BucketStats::merge)
                          .orElseThrow(),
                      finer,
                      0,
                      BucketLimits.summariesPerBucket(BucketLimits.DEFAULT_MAX_BYTES))));
    }
    return buckets;
  }

  /**
   * Every window of every granularity with its measurements, split at 1000: the layout of versions
   * before coarse documents held summaries (see {@link #asWrittenBefore}).
   */
  public static List<ClosedBucket> closedWithMeasurements(
      final SeriesKey series,
      final List<Granularity> granularities,
      final List<Measurement> readings) {
    final List<ClosedBucket> buckets = new ArrayList<>();
    for (final Granularity granularity : granularities) {
      buckets.addAll(withMeasurements(series, granularity, readings));
    }
    return buckets;
  }

  /**
   * A document as versions before first and last values, the spread and summaries wrote it: the
   * same but for those fields, and without a {@code schema_version} (version 1).
   */
  public static BsonDocument asWrittenBefore(final BsonDocument document) {
    // a mutable copy: the bucket writer's documents are raw BSON
    final BsonDocument old =
        new BsonDocumentCodec()
            .decode(new BsonDocumentReader(document), DecoderContext.builder().build());
    for (final BsonDocument fields : List.of(old, old.getDocument("window"))) {
      for (final String name : List.of("first_value", "last_value", "stddev")) {
        fields.remove(name);
      }
    }
    old.remove("schema_version");
    old.getDocument("window").remove("first_timestamp");
    old.getDocument("window").remove("last_timestamp");
    return old;
  }

  private static List<ClosedBucket> withMeasurements(
      final SeriesKey series, final Granularity granularity, final List<Measurement> readings) {
    final List<ClosedBucket> buckets = new ArrayList<>();
    windows(granularity, readings)
        .forEach(
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
    return buckets;
  }

  /** The readings of each window of {@code granularity} that has any, by start. */
  private static Map<Long, List<Measurement>> windows(
      final Granularity granularity, final List<Measurement> readings) {
    final Map<Long, List<Measurement>> windows = new TreeMap<>();
    for (final Measurement reading : readings) {
      windows
          .computeIfAbsent(granularity.windowStart(reading.timestamp()), s -> new ArrayList<>())
          .add(reading);
    }
    return windows;
  }
}
