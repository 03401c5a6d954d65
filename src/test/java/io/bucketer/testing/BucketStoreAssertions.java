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

  /** As {@link #assertStoreEqualsComputation(BucketReader, List, Granularity)}, for each. */
  public static void assertStoreEqualsComputation(
      final BucketReader store,
      final List<Reading> readings,
      final Granularity first,
      final Granularity... more) {
    assertStoreEqualsComputation(store, readings, first);
    for (final Granularity granularity : more) {
      assertStoreEqualsComputation(store, readings, granularity);
    }
  }

  /**
   * Every window of {@code granularity} in MongoDB holds exactly the readings the computation puts
   * in it, with the same computed fields: nothing lost, nothing counted twice.
   */
  public static void assertStoreEqualsComputation(
      final BucketReader store, final List<Reading> readings, final Granularity granularity) {
    final Map<String, ExpectedBuckets.Expected> expected =
        ExpectedBuckets.compute(readings, granularity.sizeMillis());
    // A window may be written as several bucket documents (seq 0, 1, ...): put them together.
    final Map<String, TreeMap<Integer, BsonDocument>> windows = new TreeMap<>();
    for (final BsonDocument document : store.all(granularity)) {
      final String metric =
          document.containsKey("metric") ? document.getString("metric").getValue() : null;
      windows
          .computeIfAbsent(
              ExpectedBuckets.key(
                  document.getString("sensor_id").getValue(),
                  metric,
                  document.getDateTime("start_date").getValue()),
              key -> new TreeMap<>())
          .put(document.getInt32("seq").getValue(), document);
    }
    assertThat(windows.keySet()).isEqualTo(expected.keySet());
    expected.forEach(
        (key, bucket) -> {
          final TreeMap<Integer, BsonDocument> documents = windows.get(key);
          final BsonDocument first = documents.firstEntry().getValue();
          assertThat(documents.keySet())
              .as("%s: every bucket of the window, once", key)
              .containsExactlyElementsOf(
                  java.util.stream.IntStream.range(0, first.getInt32("buckets").getValue())
                      .boxed()
                      .toList());
          final BsonDocument window = first.getDocument("window");
          assertThat(first.getString("granularity").getValue()).isEqualTo(granularity.label());
          assertThat(first.getDateTime("end_date").getValue()).isEqualTo(bucket.windowEnd());
          assertThat(window.getNumber("count").longValue()).isEqualTo(bucket.count());
          assertThat(window.getDouble("sum").getValue()).isCloseTo(bucket.sum(), within(1e-6));
          assertThat(window.getDouble("min").getValue()).isEqualTo(bucket.min());
          assertThat(window.getDouble("max").getValue()).isEqualTo(bucket.max());
          long count = 0;
          final List<Long> timestamps = new ArrayList<>();
          final List<Double> values = new ArrayList<>();
          for (final BsonDocument document : documents.values()) {
            count += document.getNumber("count").longValue();
            document
                .getArray("measurements")
                .forEach(
                    m -> {
                      timestamps.add(m.asDocument().getDateTime("timestamp").getValue());
                      values.add(m.asDocument().getDouble("value").getValue());
                    });
          }
          assertThat(count).isEqualTo(bucket.count());
          assertThat(timestamps).isEqualTo(bucket.timestamps());
          assertThat(values).isEqualTo(bucket.values());
        });
  }
}
