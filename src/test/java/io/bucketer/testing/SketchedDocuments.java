package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sink.BucketDocuments;
import io.bucketer.sketch.ValueSketch;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;

/**
 * Bucket documents with the quantile sketches the tests choose: each window's and each summary's
 * sketch built here, independently, from the readings sent ({@link ValueSketch#of}), at a relative
 * accuracy of the test's choosing; or none; or bytes that are no sketch. Where the sink's own
 * document already holds a sketch of the same accuracy, it must be the one built here: the sketch
 * of a window's readings does not depend on how it was built.
 */
public final class SketchedDocuments {

  private SketchedDocuments() {}

  /** {@code bucket}'s document, every sketch that of {@code sent}'s readings in its window. */
  public static BsonDocument of(
      final ClosedBucket bucket, final List<Measurement> sent, final double relativeAccuracy) {
    final BsonDocument document = mutable(bucket);
    final long start = bucket.windowStart();
    sketch(
        document.getDocument(BucketDocumentNames.WINDOW),
        between(sent, start, bucket.granularity().windowEnd(start)),
        relativeAccuracy);
    for (final WindowSummary summary : bucket.summaries()) {
      final BsonDocument fields =
          document.getArray(BucketDocumentNames.SUMMARIES).stream()
              .map(BsonValue::asDocument)
              .filter(
                  f -> f.getDateTime(BucketDocumentNames.START_DATE).getValue() == summary.start())
              .findFirst()
              .orElseThrow();
      sketch(fields, between(sent, summary.start(), summary.end()), relativeAccuracy);
    }
    return document;
  }

  private static void sketch(
      final BsonDocument fields, final List<Measurement> readings, final double relativeAccuracy) {
    final ValueSketch sketch = ValueSketch.of(readings, Measurement::value, relativeAccuracy);
    final BsonValue written = fields.get(BucketDocumentNames.QUANTILE_SKETCH);
    if (written != null && relativeAccuracy == ValueSketch.DEFAULT_RELATIVE_ACCURACY) {
      assertThat(ValueSketch.decode(written.asBinary().getData()))
          .as("the sink's sketch of %s", fields)
          .isEqualTo(sketch);
    }
    fields.put(BucketDocumentNames.QUANTILE_SKETCH, new BsonBinary(sketch.encode()));
  }

  private static List<Measurement> between(
      final List<Measurement> sent, final long from, final long to) {
    return sent.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }

  /** {@code bucket}'s document without any sketch: as written before sketches were kept. */
  public static BsonDocument without(final ClosedBucket bucket) {
    final BsonDocument document = mutable(bucket);
    windowAndSummaries(document).forEach(f -> f.remove(BucketDocumentNames.QUANTILE_SKETCH));
    return document;
  }

  /** {@code document} with {@code bytes} as every sketch: bytes that decode to no sketch. */
  public static BsonDocument corrupted(final BsonDocument document, final byte[] bytes) {
    windowAndSummaries(document)
        .forEach(f -> f.put(BucketDocumentNames.QUANTILE_SKETCH, new BsonBinary(bytes)));
    return document;
  }

  private static BsonDocument mutable(final ClosedBucket bucket) {
    return new BsonDocumentCodec()
        .decode(
            new BsonDocumentReader(BucketDocuments.toDocument(bucket)),
            DecoderContext.builder().build());
  }

  private static List<BsonDocument> windowAndSummaries(final BsonDocument document) {
    final List<BsonDocument> fields = new ArrayList<>();
    fields.add(document.getDocument(BucketDocumentNames.WINDOW));
    if (document.containsKey(BucketDocumentNames.SUMMARIES)) {
      for (final BsonValue summary : document.getArray(BucketDocumentNames.SUMMARIES)) {
        fields.add(summary.asDocument());
      }
    }
    return fields;
  }
}
