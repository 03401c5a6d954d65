package io.bucketer.sink;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowSummary;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Maps a closed bucket to its MongoDB bucket-pattern document. The document is a pure function of
 * the bucket with a fixed field order, so writing the same bucket twice (a redelivered record)
 * leaves one identical document. The {@code _id} is the series, granularity and window start: a
 * natural key, so an upsert by {@code _id} is idempotent without a unique secondary index.
 */
public final class BucketDocuments {

  /** Collection prefix used when none is configured. */
  public static final String DEFAULT_COLLECTION_PREFIX = "buckets_";

  private BucketDocuments() {}

  /** One collection per granularity, {@code buckets_1m}, {@code buckets_1h}... */
  public static String collectionName(final String prefix, final Granularity granularity) {
    return prefix + granularity.label();
  }

  /**
   * {@code {sensor_id, metric, granularity, start, seq}}; the metric is BSON null when absent so
   * every {@code _id} has the same shape (MongoDB compares sub-documents field by field, in order).
   */
  public static BsonDocument idOf(final ClosedBucket bucket) {
    final String metric = bucket.series().metric();
    return new BsonDocument()
        .append("sensor_id", new BsonString(bucket.series().sensorId()))
        .append("metric", metric == null ? BsonNull.VALUE : new BsonString(metric))
        .append("granularity", new BsonString(bucket.granularity().label()))
        .append("start", new BsonDateTime(bucket.windowStart()))
        .append("seq", new BsonInt32(bucket.seq()));
  }

  /** The whole document, {@code _id} included; optional fields are omitted when absent. */
  public static BsonDocument toDocument(final ClosedBucket bucket) {
    final BucketStats stats = bucket.stats();
    final BsonDocument document =
        new BsonDocument()
            .append("_id", idOf(bucket))
            .append("sensor_id", new BsonString(bucket.series().sensorId()));
    if (bucket.series().metric() != null) {
      document.append("metric", new BsonString(bucket.series().metric()));
    }
    document
        .append("granularity", new BsonString(bucket.granularity().label()))
        .append("start_date", new BsonDateTime(bucket.windowStart()))
        .append("end_date", new BsonDateTime(bucket.windowEnd()))
        .append("seq", new BsonInt32(bucket.seq()))
        .append("buckets", new BsonInt32(bucket.buckets()))
        .append("revision", new BsonInt32(bucket.revision()));
    if (stats.utcOffsetMinutes() != null) {
      document.append("utc_offset_minutes", new BsonInt32(stats.utcOffsetMinutes()));
    }
    appendComputedFields(document, stats);
    document.append("window", window(bucket.window()));
    if (bucket.summaries().isEmpty()) {
      return document.append("measurements", measurements(bucket.measurements()));
    }
    return document
        .append(
            "summary_granularity", new BsonString(bucket.summaries().get(0).granularity().label()))
        .append("summaries", summaries(bucket.summaries()));
  }

  /**
   * count, sum, avg, min, max, the first and last reading's time and value, and the population
   * standard deviation: the same names at the top of a document, in its {@code window} and in each
   * summary. Values that stats written by an older version lack (NaN) are left out.
   */
  private static BsonDocument appendComputedFields(
      final BsonDocument document, final BucketStats stats) {
    document
        .append("count", new BsonInt64(stats.count()))
        .append("sum", new BsonDouble(stats.sum()))
        .append("avg", new BsonDouble(stats.average()))
        .append("min", new BsonDouble(stats.min()))
        .append("max", new BsonDouble(stats.max()))
        .append("first_timestamp", new BsonDateTime(stats.firstTimestamp()));
    appendKnown(document, "first_value", stats.first().value());
    document.append("last_timestamp", new BsonDateTime(stats.lastTimestamp()));
    appendKnown(document, "last_value", stats.last().value());
    appendKnown(document, "stddev", stats.standardDeviation());
    return document;
  }

  private static void appendKnown(
      final BsonDocument document, final String name, final double value) {
    if (!Double.isNaN(value)) {
      document.append(name, new BsonDouble(value));
    }
  }

  /** Totals of the whole window, the same in each of its buckets. */
  private static BsonDocument window(final BucketStats window) {
    return appendComputedFields(new BsonDocument(), window);
  }

  private static BsonArray summaries(final List<WindowSummary> summaries) {
    final List<BsonValue> values = new ArrayList<>(summaries.size());
    for (final WindowSummary summary : summaries) {
      values.add(
          appendComputedFields(
              new BsonDocument("start_date", new BsonDateTime(summary.start())), summary.stats()));
    }
    return new BsonArray(values);
  }

  private static BsonArray measurements(final List<Measurement> measurements) {
    final List<BsonValue> values = new ArrayList<>(measurements.size());
    for (final Measurement measurement : measurements) {
      values.add(
          new BsonDocument()
              .append("timestamp", new BsonDateTime(measurement.timestamp()))
              .append("value", new BsonDouble(measurement.value())));
    }
    return new BsonArray(values);
  }
}
