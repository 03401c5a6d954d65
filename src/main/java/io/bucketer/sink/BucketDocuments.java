package io.bucketer.sink;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowSummary;
import java.util.List;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonWriter;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;

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

  /**
   * The whole document, {@code _id} included; optional fields are omitted when absent. Written
   * straight to BSON bytes, which the driver copies into its bulk write as they are: a tree of
   * {@code BsonDocument}s cost the sink a hash map per measurement and the driver a walk of the
   * tree, a third of what writing to MongoDB cost the processor in the bench's profile.
   */
  public static RawBsonDocument toDocument(final ClosedBucket bucket) {
    final BasicOutputBuffer buffer = new BasicOutputBuffer(estimatedBytes(bucket));
    try (BsonBinaryWriter writer = new BsonBinaryWriter(buffer)) {
      writer.writeStartDocument();
      writer.writeName("_id");
      writer.pipe(new BsonDocumentReader(idOf(bucket)));
      writer.writeString("sensor_id", bucket.series().sensorId());
      if (bucket.series().metric() != null) {
        writer.writeString("metric", bucket.series().metric());
      }
      writer.writeString("granularity", bucket.granularity().label());
      writer.writeDateTime("start_date", bucket.windowStart());
      writer.writeDateTime("end_date", bucket.windowEnd());
      writer.writeInt32("seq", bucket.seq());
      writer.writeInt32("buckets", bucket.buckets());
      writer.writeInt32("revision", bucket.revision());
      final BucketStats stats = bucket.stats();
      if (stats.utcOffsetMinutes() != null) {
        writer.writeInt32("utc_offset_minutes", stats.utcOffsetMinutes());
      }
      writeComputedFields(writer, stats);
      writer.writeStartDocument("window");
      writeComputedFields(writer, bucket.window());
      writer.writeEndDocument();
      if (bucket.summaries().isEmpty()) {
        writeMeasurements(writer, bucket.measurements());
      } else {
        writer.writeString("summary_granularity", bucket.summaries().get(0).granularity().label());
        writeSummaries(writer, bucket.summaries());
      }
      writer.writeEndDocument();
    }
    return new RawBsonDocument(buffer.getInternalBuffer(), 0, buffer.getPosition());
  }

  /** The document's size, about: a measurement takes 42 bytes, a summary about 200. */
  private static int estimatedBytes(final ClosedBucket bucket) {
    return 1_024 + 42 * bucket.measurements().size() + 200 * bucket.summaries().size();
  }

  /**
   * count, sum, avg, min, max, the first and last reading's time and value, and the population
   * standard deviation: the same names at the top of a document, in its {@code window} and in each
   * summary. Values that stats written by an older version lack (NaN) are left out.
   */
  private static void writeComputedFields(final BsonWriter writer, final BucketStats stats) {
    writer.writeInt64("count", stats.count());
    writer.writeDouble("sum", stats.sum());
    writer.writeDouble("avg", stats.average());
    writer.writeDouble("min", stats.min());
    writer.writeDouble("max", stats.max());
    writer.writeDateTime("first_timestamp", stats.firstTimestamp());
    writeKnown(writer, "first_value", stats.first().value());
    writer.writeDateTime("last_timestamp", stats.lastTimestamp());
    writeKnown(writer, "last_value", stats.last().value());
    writeKnown(writer, "stddev", stats.standardDeviation());
  }

  private static void writeKnown(final BsonWriter writer, final String name, final double value) {
    if (!Double.isNaN(value)) {
      writer.writeDouble(name, value);
    }
  }

  private static void writeSummaries(final BsonWriter writer, final List<WindowSummary> summaries) {
    writer.writeStartArray("summaries");
    for (final WindowSummary summary : summaries) {
      writer.writeStartDocument();
      writer.writeDateTime("start_date", summary.start());
      writeComputedFields(writer, summary.stats());
      writer.writeEndDocument();
    }
    writer.writeEndArray();
  }

  private static void writeMeasurements(
      final BsonWriter writer, final List<Measurement> measurements) {
    writer.writeStartArray("measurements");
    for (final Measurement measurement : measurements) {
      writer.writeStartDocument();
      writer.writeDateTime("timestamp", measurement.timestamp());
      writer.writeDouble("value", measurement.value());
      writer.writeEndDocument();
    }
    writer.writeEndArray();
  }
}
