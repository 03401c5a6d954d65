package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.query.StoredDocuments;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.bson.BsonDocument;

/** Compares what MongoDB holds with the independent computation of {@link ExpectedBuckets}. */
public final class BucketStoreAssertions {

  private BucketStoreAssertions() {}

  /** As {@link #assertStoreEqualsComputation(StoredDocuments, List, Granularity)}, for each. */
  public static void assertStoreEqualsComputation(
      final StoredDocuments store,
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
   * in it, with the same computed fields: nothing lost, nothing counted twice. A window that holds
   * summaries of finer windows must hold one per finer window with readings, each equal to the
   * computation of that finer window.
   */
  public static void assertStoreEqualsComputation(
      final StoredDocuments store, final List<Reading> readings, final Granularity granularity) {
    final Map<String, ExpectedBuckets.Expected> expected =
        ExpectedBuckets.compute(readings, granularity.sizeMillis());
    // A window may be written as several bucket documents (seq 0, 1, ...): put them together.
    final Map<String, TreeMap<Integer, BsonDocument>> windows = new TreeMap<>();
    for (final BsonDocument document : store.all(granularity)) {
      assertThat(document.getInt32("schema_version").getValue())
          .as("schema_version of %s", document.get("_id"))
          .isEqualTo(4);
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
                  IntStream.range(0, first.getInt32("buckets").getValue()).boxed().toList());
          assertThat(first.getString("granularity").getValue()).isEqualTo(granularity.label());
          assertThat(first.getDateTime("end_date").getValue()).isEqualTo(bucket.windowEnd());
          assertComputedFields(key + " window", first.getDocument("window"), bucket);
          assertTimeWeightedPart(
              key,
              documents.values(),
              bucket.windowEnd() - granularity.sizeMillis(),
              bucket.windowEnd());
          long count = 0;
          for (final BsonDocument document : documents.values()) {
            count += document.getNumber("count").longValue();
          }
          assertThat(count).isEqualTo(bucket.count());
          if (first.containsKey("summaries")) {
            assertSummaries(key, documents.values(), readings, bucket);
          } else {
            assertMeasurements(documents.values(), bucket);
          }
        });
  }

  /**
   * Every part of a window holds the window's time-weighted part, the same on each: covered time
   * within the window, its coverage and average consistent with it. (Its values against the
   * readings are checked by TimeWeightOracleTest; late readings here move edges that this version
   * does not revise.)
   */
  private static void assertTimeWeightedPart(
      final String key, final Iterable<BsonDocument> documents, final long start, final long end) {
    BsonDocument part = null;
    for (final BsonDocument document : documents) {
      final BsonDocument window = document.getDocument("window").clone();
      for (final String computed :
          List.of(
              "count",
              "sum",
              "avg",
              "min",
              "max",
              "first_timestamp",
              "first_value",
              "last_timestamp",
              "last_value",
              "stddev")) {
        window.remove(computed);
      }
      if (part == null) {
        part = window;
      }
      assertThat(window).as("%s: the same time-weighted part on every bucket", key).isEqualTo(part);
    }
    final long covered = part.getInt64("covered_ms").getValue();
    assertThat(covered).as("%s covered", key).isBetween(0L, end - start);
    assertThat(part.getDouble("coverage").getValue())
        .as("%s coverage", key)
        .isEqualTo((double) covered / (end - start));
    // the gap fields are written only for a window with gaps, which is one not wholly covered
    assertThat(part.containsKey("gaps")).as("%s gaps", key).isEqualTo(covered < end - start);
    if (covered < end - start) {
      assertThat(part.getInt32("gaps").getValue()).as("%s gaps", key).isPositive();
    }
    assertThat(part.getString("interpolation").getValue()).isEqualTo("step");
    assertThat(part.containsKey("twa")).as("%s twa", key).isEqualTo(covered > 0);
    if (covered > 0) {
      assertThat(part.getDouble("twa").getValue() * covered)
          .as("%s twa × covered = integral", key)
          .isCloseTo(
              part.getDouble("integral").getValue() * 1_000,
              org.assertj.core.api.Assertions.within(
                  1e-9 * Math.abs(part.getDouble("integral").getValue() * 1_000) + 1e-9));
    }
  }

  private static void assertMeasurements(
      final Iterable<BsonDocument> documents, final ExpectedBuckets.Expected bucket) {
    final List<Long> timestamps = new ArrayList<>();
    final List<Double> values = new ArrayList<>();
    for (final BsonDocument document : documents) {
      document
          .getArray("measurements")
          .forEach(
              m -> {
                timestamps.add(m.asDocument().getDateTime("timestamp").getValue());
                values.add(m.asDocument().getDouble("value").getValue());
              });
    }
    assertThat(timestamps).isEqualTo(bucket.timestamps());
    assertThat(values).isEqualTo(bucket.values());
  }

  /** One summary per finer window with readings, in start order, each equal to the computation. */
  private static void assertSummaries(
      final String key,
      final Iterable<BsonDocument> documents,
      final List<Reading> readings,
      final ExpectedBuckets.Expected bucket) {
    final List<BsonDocument> summaries = new ArrayList<>();
    Granularity finer = null;
    for (final BsonDocument document : documents) {
      assertThat(document.containsKey("measurements"))
          .as("%s: summaries or measurements", key)
          .isFalse();
      finer = Granularity.parse(document.getString("summary_granularity").getValue());
      document.getArray("summaries").forEach(summary -> summaries.add(summary.asDocument()));
    }
    final List<ExpectedBuckets.Expected> expectedFiner =
        ExpectedBuckets.within(readings, finer.sizeMillis(), bucket);
    assertThat(summaries)
        .as("%s: one summary per %s window with readings", key, finer)
        .hasSameSizeAs(expectedFiner);
    for (int i = 0; i < summaries.size(); i++) {
      final BsonDocument summary = summaries.get(i);
      final ExpectedBuckets.Expected window = expectedFiner.get(i);
      assertThat(summary.getDateTime("start_date").getValue()).isEqualTo(window.windowStart());
      assertComputedFields(key + " summary " + i, summary, window);
    }
  }

  private static void assertComputedFields(
      final String what, final BsonDocument fields, final ExpectedBuckets.Expected expected) {
    assertThat(fields.getNumber("count").longValue())
        .as("%s count", what)
        .isEqualTo(expected.count());
    assertThat(fields.getDouble("sum").getValue())
        .as("%s sum", what)
        .isCloseTo(expected.sum(), within(1e-6));
    assertThat(fields.getDouble("min").getValue()).as("%s min", what).isEqualTo(expected.min());
    assertThat(fields.getDouble("max").getValue()).as("%s max", what).isEqualTo(expected.max());
    assertThat(fields.getDateTime("first_timestamp").getValue())
        .as("%s first", what)
        .isEqualTo(expected.firstTimestamp());
    assertThat(fields.getDouble("first_value").getValue())
        .as("%s first value", what)
        .isEqualTo(expected.firstValue());
    assertThat(fields.getDateTime("last_timestamp").getValue())
        .as("%s last", what)
        .isEqualTo(expected.lastTimestamp());
    assertThat(fields.getDouble("last_value").getValue())
        .as("%s last value", what)
        .isEqualTo(expected.lastValue());
    assertThat(fields.getDouble("stddev").getValue())
        .as("%s stddev", what)
        .isCloseTo(expected.standardDeviation(), within(1e-9 * (1 + expected.standardDeviation())));
  }
}
