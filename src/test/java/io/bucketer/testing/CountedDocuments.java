package io.bucketer.testing;

import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.sink.BucketDocuments;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;

/**
 * Bucket documents with the resends and late readings a test gives each finest window, written as
 * schema_version 4 writes them (in {@code window} and in each summary, absent when 0; a coarser
 * window's the sum of its finer windows'), or as version 3 wrote documents, without any.
 */
public final class CountedDocuments {

  private CountedDocuments() {}

  /**
   * {@code bucket}'s document at schema_version 4, its windows counting what {@code counts} gives
   * each window of {@code finest} by start (none for a window it does not name).
   */
  public static BsonDocument of(
      final ClosedBucket bucket, final Granularity finest, final Map<Long, WindowQuality> counts) {
    final BsonDocument document = mutable(bucket);
    document.put(BucketDocumentNames.SCHEMA_VERSION, new BsonInt32(4));
    final long start = bucket.windowStart();
    final long end = bucket.granularity().windowEnd(start);
    WindowQuality window = WindowQuality.NONE;
    for (long at = start; at < end; at = finest.windowEnd(at)) {
      window = window.plus(counts.getOrDefault(at, WindowQuality.NONE));
    }
    stamp(document.getDocument(BucketDocumentNames.WINDOW), window);
    if (document.containsKey(BucketDocumentNames.SUMMARIES)) {
      for (final BsonValue summary : document.getArray(BucketDocumentNames.SUMMARIES)) {
        final BsonDocument fields = summary.asDocument();
        stamp(
            fields,
            counts.getOrDefault(
                fields.getDateTime(BucketDocumentNames.START_DATE).getValue(), WindowQuality.NONE));
      }
    }
    return document;
  }

  /** {@code bucket}'s document as schema_version 3 wrote it: without any count. */
  public static BsonDocument beforeCounts(final ClosedBucket bucket) {
    final BsonDocument document = mutable(bucket);
    document.put(BucketDocumentNames.SCHEMA_VERSION, new BsonInt32(3));
    final List<BsonDocument> fields = new ArrayList<>();
    fields.add(document.getDocument(BucketDocumentNames.WINDOW));
    if (document.containsKey(BucketDocumentNames.SUMMARIES)) {
      document.getArray(BucketDocumentNames.SUMMARIES).forEach(s -> fields.add(s.asDocument()));
    }
    fields.forEach(f -> stamp(f, WindowQuality.NONE));
    return document;
  }

  /**
   * {@code document} with the interval its window learned, as the sink writes it for a metric whose
   * interval is learned: {@code window.learned_interval_ms} and the readings {@code expected} at
   * it; neither when {@code intervalMillis} is null (the window could not tell). Summaries have
   * none.
   */
  public static BsonDocument learned(
      final BsonDocument document, final Granularity granularity, final Long intervalMillis) {
    return withInterval(
        document, granularity, BucketDocumentNames.LEARNED_INTERVAL_MS, intervalMillis);
  }

  /** {@code document} with a configured interval: {@code window.expected_interval_ms}. */
  public static BsonDocument configured(
      final BsonDocument document, final Granularity granularity, final long intervalMillis) {
    return withInterval(
        document, granularity, BucketDocumentNames.EXPECTED_INTERVAL_MS, intervalMillis);
  }

  private static BsonDocument withInterval(
      final BsonDocument document,
      final Granularity granularity,
      final String field,
      final Long intervalMillis) {
    final BsonDocument window = document.getDocument(BucketDocumentNames.WINDOW);
    window.remove(BucketDocumentNames.EXPECTED_INTERVAL_MS);
    window.remove(BucketDocumentNames.LEARNED_INTERVAL_MS);
    window.remove(BucketDocumentNames.EXPECTED);
    if (intervalMillis != null) {
      window.put(field, new BsonInt64(intervalMillis));
      window.put(
          BucketDocumentNames.EXPECTED,
          new BsonDouble((double) granularity.sizeMillis() / intervalMillis));
    }
    return document;
  }

  private static void stamp(final BsonDocument fields, final WindowQuality quality) {
    fields.remove(BucketDocumentNames.RESENDS);
    fields.remove(BucketDocumentNames.LATE_READINGS);
    if (quality.resends() > 0) {
      fields.put(BucketDocumentNames.RESENDS, new BsonInt64(quality.resends()));
    }
    if (quality.lateReadings() > 0) {
      fields.put(BucketDocumentNames.LATE_READINGS, new BsonInt64(quality.lateReadings()));
    }
  }

  /** A mutable copy: the sink's documents are raw BSON. */
  private static BsonDocument mutable(final ClosedBucket bucket) {
    return new BsonDocumentCodec()
        .decode(
            new BsonDocumentReader(BucketDocuments.toDocument(bucket)),
            DecoderContext.builder().build());
  }
}
