package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.sink.BucketReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bson.BsonDocument;

/** Compares what MongoDB holds with the independent computation of {@link ExpectedBuckets}. */
public final class BucketStoreAssertions {

  private BucketStoreAssertions() {}

  /**
   * Every window of {@code granularity} in MongoDB holds exactly the readings the computation puts
   * in it, with the same computed fields: nothing lost, nothing counted twice.
   */
  public static void assertStoreEqualsComputation(
      final BucketReader store, final List<Reading> readings, final Granularity granularity) {
    final Map<String, ExpectedBuckets.Expected> expected =
        ExpectedBuckets.compute(readings, granularity.sizeMillis());
    final Map<String, BsonDocument> actual = new TreeMap<>();
    for (final BsonDocument document : store.all(granularity)) {
      final String metric =
          document.containsKey("metric") ? document.getString("metric").getValue() : null;
      actual.put(
          ExpectedBuckets.key(
              document.getString("sensor_id").getValue(),
              metric,
              document.getDateTime("start_date").getValue()),
          document);
    }
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    expected.forEach(
        (key, bucket) -> {
          final BsonDocument document = actual.get(key);
          assertThat(document.getString("granularity").getValue()).isEqualTo(granularity.label());
          assertThat(document.getDateTime("end_date").getValue()).isEqualTo(bucket.windowEnd());
          assertThat(document.getNumber("count").longValue()).isEqualTo(bucket.count());
          assertThat(document.getDouble("sum").getValue()).isCloseTo(bucket.sum(), within(1e-6));
          assertThat(document.getDouble("min").getValue()).isEqualTo(bucket.min());
          assertThat(document.getDouble("max").getValue()).isEqualTo(bucket.max());
          final List<Long> timestamps = new ArrayList<>();
          final List<Double> values = new ArrayList<>();
          document
              .getArray("measurements")
              .forEach(
                  m -> {
                    timestamps.add(m.asDocument().getDateTime("timestamp").getValue());
                    values.add(m.asDocument().getDouble("value").getValue());
                  });
          assertThat(timestamps).isEqualTo(bucket.timestamps());
          assertThat(values).isEqualTo(bucket.values());
        });
  }
}
