package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.AVG;
import static io.bucketer.buckets.BucketDocumentNames.BUCKETS;
import static io.bucketer.buckets.BucketDocumentNames.CARRY_IN;
import static io.bucketer.buckets.BucketDocumentNames.COUNT;
import static io.bucketer.buckets.BucketDocumentNames.COVERAGE;
import static io.bucketer.buckets.BucketDocumentNames.COVERED_MS;
import static io.bucketer.buckets.BucketDocumentNames.END_DATE;
import static io.bucketer.buckets.BucketDocumentNames.EXPECTED;
import static io.bucketer.buckets.BucketDocumentNames.EXPECTED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.FIRST_TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.FIRST_VALUE;
import static io.bucketer.buckets.BucketDocumentNames.GAPS;
import static io.bucketer.buckets.BucketDocumentNames.GAP_AT_END_MS;
import static io.bucketer.buckets.BucketDocumentNames.GAP_AT_START_MS;
import static io.bucketer.buckets.BucketDocumentNames.GRANULARITY;
import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.ID_START;
import static io.bucketer.buckets.BucketDocumentNames.INTEGRAL;
import static io.bucketer.buckets.BucketDocumentNames.INTERPOLATION;
import static io.bucketer.buckets.BucketDocumentNames.LAST_TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.LAST_VALUE;
import static io.bucketer.buckets.BucketDocumentNames.LATE_READINGS;
import static io.bucketer.buckets.BucketDocumentNames.LEARNED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.LONGEST_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.MAX;
import static io.bucketer.buckets.BucketDocumentNames.MAX_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.MEASUREMENTS;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.MIN;
import static io.bucketer.buckets.BucketDocumentNames.QUANTILE_SKETCH;
import static io.bucketer.buckets.BucketDocumentNames.RESENDS;
import static io.bucketer.buckets.BucketDocumentNames.REVISION;
import static io.bucketer.buckets.BucketDocumentNames.SCHEMA_VERSION;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.SEQ;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;
import static io.bucketer.buckets.BucketDocumentNames.STDDEV;
import static io.bucketer.buckets.BucketDocumentNames.SUM;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARIES;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARY_GRANULARITY;
import static io.bucketer.buckets.BucketDocumentNames.TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.TWA;
import static io.bucketer.buckets.BucketDocumentNames.UTC_OFFSET_MINUTES;
import static io.bucketer.buckets.BucketDocumentNames.VALUE;
import static io.bucketer.buckets.BucketDocumentNames.WINDOW;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import java.util.List;
import java.util.OptionalDouble;
import org.bson.BsonBinary;
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
 *
 * <p>Every document says its format in {@code schema_version} (MongoDB's schema versioning
 * pattern), right after the {@code _id}: {@value #SCHEMA_VERSION_WRITTEN} now. Documents written
 * before the field existed lack it and are version 1: the same fields, but that the oldest lack the
 * first and last values and the spread, and coarse windows held measurements rather than summaries,
 * all of which the query side reads. Version 3 adds the time-weighted part to {@code window} and to
 * each summary (never at the top: a {@code seq} part of a window has none of its own); every field
 * it adds is optional, absent when unknown. The quantile sketches ({@code quantile_sketch}, in
 * {@code window} and in each summary) came later in version 3, optional as well: absent when
 * quantiles are off or the document was written before. Version 4 adds how the readings arrived:
 * {@code resends} and {@code late_readings} in {@code window} and in each summary, written only
 * when not 0, so that a window of a sensor on time costs no byte more; and, in {@code window}, the
 * metric's {@code expected_interval_ms} and the readings {@code expected}, when it has one. Because
 * an absent count means 0 there, a bucket whose counts are unknown (a record of buckets format 4
 * still in the topic, a backfill over documents older than version 4) is written as version 3,
 * without counts: what a version 3 document says of them, unknown. A change of the document's
 * fields raises the version, and the readers keep reading every earlier one (a golden document of
 * each is read by {@code GoldenDocumentFormatTest}).
 */
public final class BucketDocuments {

  /** The {@code schema_version} of the documents this build writes. */
  public static final int SCHEMA_VERSION_WRITTEN = 4;

  /**
   * The {@code schema_version} of the documents this build writes for a bucket whose counts of
   * resends and late readings are unknown: version 3, whose counts are unknown to every reader.
   */
  public static final int SCHEMA_VERSION_WITHOUT_QUALITY = 3;

  private BucketDocuments() {}

  /**
   * {@code {sensor_id, metric, granularity, start, seq}}; the metric is BSON null when absent so
   * every {@code _id} has the same shape (MongoDB compares sub-documents field by field, in order).
   */
  public static BsonDocument idOf(final ClosedBucket bucket) {
    final String metric = bucket.series().metric();
    return new BsonDocument()
        .append(SENSOR_ID, new BsonString(bucket.series().sensorId()))
        .append(METRIC, metric == null ? BsonNull.VALUE : new BsonString(metric))
        .append(GRANULARITY, new BsonString(bucket.granularity().label()))
        .append(ID_START, new BsonDateTime(bucket.windowStart()))
        .append(SEQ, new BsonInt32(bucket.seq()));
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
      writer.writeName(ID);
      writer.pipe(new BsonDocumentReader(idOf(bucket)));
      final boolean qualityKnown = qualityKnown(bucket);
      writer.writeInt32(
          SCHEMA_VERSION, qualityKnown ? SCHEMA_VERSION_WRITTEN : SCHEMA_VERSION_WITHOUT_QUALITY);
      writer.writeString(SENSOR_ID, bucket.series().sensorId());
      if (bucket.series().metric() != null) {
        writer.writeString(METRIC, bucket.series().metric());
      }
      writer.writeString(GRANULARITY, bucket.granularity().label());
      writer.writeDateTime(START_DATE, bucket.windowStart());
      writer.writeDateTime(END_DATE, bucket.windowEnd());
      writer.writeInt32(SEQ, bucket.seq());
      writer.writeInt32(BUCKETS, bucket.buckets());
      writer.writeInt32(REVISION, bucket.revision());
      final BucketStats stats = bucket.stats();
      if (stats.utcOffsetMinutes() != null) {
        writer.writeInt32(UTC_OFFSET_MINUTES, stats.utcOffsetMinutes());
      }
      writeComputedFields(writer, stats);
      writer.writeStartDocument(WINDOW);
      writeComputedFields(writer, bucket.window());
      if (bucket.extras() != null) {
        writeWindowExtras(
            writer, bucket.extras(), bucket.windowEnd() - bucket.windowStart(), qualityKnown);
      }
      writer.writeEndDocument();
      if (bucket.summaries().isEmpty()) {
        writeMeasurements(writer, bucket.measurements());
      } else {
        writer.writeString(SUMMARY_GRANULARITY, bucket.summaries().get(0).granularity().label());
        writeSummaries(writer, bucket.summaries(), qualityKnown);
      }
      writer.writeEndDocument();
    }
    return new RawBsonDocument(buffer.getInternalBuffer(), 0, buffer.getPosition());
  }

  /**
   * Whether the counts of resends and late readings of the bucket's window and of every summary in
   * it are known: only then is its document version 4, in which an absent count is 0.
   */
  static boolean qualityKnown(final ClosedBucket bucket) {
    if (bucket.extras() == null || bucket.extras().quality() == null) {
      return false;
    }
    for (final WindowSummary summary : bucket.summaries()) {
      if (summary.quality() == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * The document's size, about: a measurement takes 42 bytes, a summary about 320 and its sketch's.
   */
  private static int estimatedBytes(final ClosedBucket bucket) {
    int sketches = bucket.extras() == null ? 0 : bucket.extras().sketchBytes();
    for (final WindowSummary summary : bucket.summaries()) {
      sketches += summary.sketchBytes();
    }
    return 1_024 + 42 * bucket.measurements().size() + 320 * bucket.summaries().size() + sketches;
  }

  /**
   * count, sum, avg, min, max, the first and last reading's time and value, and the population
   * standard deviation: the same names at the top of a document, in its {@code window} and in each
   * summary. Values that stats written by an older version lack (NaN) are left out.
   */
  private static void writeComputedFields(final BsonWriter writer, final BucketStats stats) {
    writer.writeInt64(COUNT, stats.count());
    writer.writeDouble(SUM, stats.sum());
    writer.writeDouble(AVG, stats.average());
    writer.writeDouble(MIN, stats.min());
    writer.writeDouble(MAX, stats.max());
    writer.writeDateTime(FIRST_TIMESTAMP, stats.firstTimestamp());
    writeKnown(writer, FIRST_VALUE, stats.first().value());
    writer.writeDateTime(LAST_TIMESTAMP, stats.lastTimestamp());
    writeKnown(writer, LAST_VALUE, stats.last().value());
    writeKnown(writer, STDDEV, stats.standardDeviation());
  }

  /**
   * The window's time-weighted part, when known; then its quantile sketch, when known; then its
   * resends and late readings when {@code qualityKnown} (each only when not 0); then, when the
   * metric has one, its expected interval and the readings the window should have had.
   */
  private static void writeWindowExtras(
      final BsonWriter writer,
      final WindowExtras extras,
      final long spanMillis,
      final boolean qualityKnown) {
    if (extras.timeWeighted() != null) {
      writeTimeWeightedPart(writer, extras, spanMillis);
    }
    writeSketch(writer, extras.sketch());
    if (qualityKnown) {
      writeQuality(writer, extras.quality());
    }
    final Long configured = extras.expectedIntervalMillis();
    if (configured != null) {
      writer.writeInt64(EXPECTED_INTERVAL_MS, configured);
    }
    final Long learned = extras.learnedIntervalMillis();
    if (learned != null) {
      writer.writeInt64(LEARNED_INTERVAL_MS, learned);
    }
    final Long interval = extras.intervalMillis();
    if (interval != null) {
      writer.writeDouble(EXPECTED, (double) spanMillis / interval);
    }
  }

  /**
   * The window's time-weighted part: covered time and its fraction of the window, the integral in
   * value·s and the time-weighted average (absent when nothing is covered), the gaps, the reading
   * carried in, and the max gap and interpolation they were computed with.
   */
  private static void writeTimeWeightedPart(
      final BsonWriter writer, final WindowExtras extras, final long spanMillis) {
    final TimeWeighted part = extras.timeWeighted();
    writer.writeInt64(COVERED_MS, part.coveredMillis());
    writer.writeDouble(COVERAGE, part.coverage(spanMillis));
    writer.writeDouble(INTEGRAL, part.integralValueSeconds());
    final OptionalDouble twa = part.twa();
    if (twa.isPresent()) {
      writer.writeDouble(TWA, twa.getAsDouble());
    }
    writeGaps(writer, part);
    final Measurement carryIn = extras.carryIn();
    if (carryIn != null) {
      writer.writeStartDocument(CARRY_IN);
      writer.writeDateTime(TIMESTAMP, carryIn.timestamp());
      writer.writeDouble(VALUE, carryIn.value());
      writer.writeEndDocument();
    }
    writer.writeInt64(MAX_GAP_MS, extras.weighting().maxGapMillis());
    writer.writeString(INTERPOLATION, extras.weighting().interpolation().label());
  }

  /**
   * The resends and late readings, each only when not 0: a window of a sensor on time has neither,
   * and a version 4 document without them says so.
   */
  private static void writeQuality(final BsonWriter writer, final WindowQuality quality) {
    if (quality.resends() > 0) {
      writer.writeInt64(RESENDS, quality.resends());
    }
    if (quality.lateReadings() > 0) {
      writer.writeInt64(LATE_READINGS, quality.lateReadings());
    }
  }

  /** The quantile sketch's bytes as BSON binary of the generic subtype; nothing when unknown. */
  private static void writeSketch(final BsonWriter writer, final ValueSketch sketch) {
    if (sketch != null) {
      writer.writeBinaryData(QUANTILE_SKETCH, new BsonBinary(sketch.encode()));
    }
  }

  /** A summary's time-weighted part: what adds up; its average and coverage follow from it. */
  private static void writeTimeWeight(final BsonWriter writer, final TimeWeighted part) {
    writer.writeInt64(COVERED_MS, part.coveredMillis());
    writer.writeDouble(INTEGRAL, part.integralValueSeconds());
    writeGaps(writer, part);
  }

  /**
   * The gaps, only when there are some: a part with {@code covered_ms} and no {@code gaps} has none
   * (and its longest and edge gaps are 0). A sensor that reports on time has none in nearly every
   * window, and these four fields would be a fifth of an hour document's bytes.
   */
  private static void writeGaps(final BsonWriter writer, final TimeWeighted part) {
    if (part.gaps() == 0) {
      return;
    }
    writer.writeInt32(GAPS, part.gaps());
    writer.writeInt64(LONGEST_GAP_MS, part.longestGapMillis());
    writer.writeInt64(GAP_AT_START_MS, part.gapAtStartMillis());
    writer.writeInt64(GAP_AT_END_MS, part.gapAtEndMillis());
  }

  private static void writeKnown(final BsonWriter writer, final String name, final double value) {
    if (!Double.isNaN(value)) {
      writer.writeDouble(name, value);
    }
  }

  private static void writeSummaries(
      final BsonWriter writer, final List<WindowSummary> summaries, final boolean qualityKnown) {
    writer.writeStartArray(SUMMARIES);
    for (final WindowSummary summary : summaries) {
      writer.writeStartDocument();
      writer.writeDateTime(START_DATE, summary.start());
      writeComputedFields(writer, summary.stats());
      if (summary.timeWeighted() != null) {
        writeTimeWeight(writer, summary.timeWeighted());
      }
      writeSketch(writer, summary.sketch());
      if (qualityKnown) {
        writeQuality(writer, summary.quality());
      }
      writer.writeEndDocument();
    }
    writer.writeEndArray();
  }

  private static void writeMeasurements(
      final BsonWriter writer, final List<Measurement> measurements) {
    writer.writeStartArray(MEASUREMENTS);
    for (final Measurement measurement : measurements) {
      writer.writeStartDocument();
      writer.writeDateTime(TIMESTAMP, measurement.timestamp());
      writer.writeDouble(VALUE, measurement.value());
      writer.writeEndDocument();
    }
    writer.writeEndArray();
  }
}
