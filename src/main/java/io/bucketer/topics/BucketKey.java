package io.bucketer.topics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.bucketer.buckets.ClosedBucket;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The record key of the compacted buckets topic: one key per series, granularity and window, so
 * compaction keeps only the latest version of each bucket. It is a JSON array {@code
 * ["1m",1700000000000,"sensor-1","temperature"]} (a null metric is JSON {@code null}) because JSON
 * string escaping makes it unambiguous for any sensor id or metric, where joining with a separator
 * would let {@code a/b + c} and {@code a + b/c} collide. Its serde is {@code Serdes.String()}, in
 * the topic's contract ({@link BucketerTopics#closedBuckets}).
 */
public final class BucketKey {

  private static final JsonFactory JSON = new JsonFactory();

  private BucketKey() {}

  /** The compaction key of {@code bucket}. */
  public static String of(final ClosedBucket bucket) {
    final StringWriter out = new StringWriter(64);
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      generator.writeStartArray();
      generator.writeString(bucket.granularity().label());
      generator.writeNumber(bucket.windowStart());
      generator.writeString(bucket.series().sensorId());
      if (bucket.series().metric() == null) {
        generator.writeNull();
      } else {
        generator.writeString(bucket.series().metric());
      }
      // A window written as several buckets needs a key per bucket, or compaction drops some.
      generator.writeNumber(bucket.seq());
      generator.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the key of a bucket", e);
    }
    return out.toString();
  }

  /**
   * The window start a key names, in epoch milliseconds.
   *
   * @throws IllegalArgumentException when {@code key} is not a bucket key
   */
  public static long windowStartOf(final String key) {
    try (JsonParser parser = JSON.createParser(key)) {
      if (parser.nextToken() == JsonToken.START_ARRAY
          && parser.nextToken() == JsonToken.VALUE_STRING
          && parser.nextToken() == JsonToken.VALUE_NUMBER_INT) {
        return parser.getLongValue();
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("not a bucket key: " + key, e);
    }
    throw new IllegalArgumentException("not a bucket key: " + key);
  }
}
