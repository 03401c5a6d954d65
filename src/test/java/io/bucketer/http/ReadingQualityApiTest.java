package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.testing.CountedDocuments;
import io.bucketer.testing.SeriesBuckets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Resends, late readings, the readings expected and the completeness in the query API's answers,
 * over HTTP: in a range's statistics and in each point of a chart, filled points included; null
 * where a document of schema_version 3 leaves the counts unknown, and where no interval is
 * configured for the metric; for a metric whose interval is learned, the one the windows read
 * learned, weighted by their readings.
 */
class ReadingQualityApiTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final SeriesKey SERIES = new SeriesKey("sensor-5", "temperature");

  /** A metric without an expected interval. */
  private static final SeriesKey HUMIDITY = new SeriesKey("sensor-5", "humidity");

  /** A metric whose interval is learned: each window's is in its document. */
  private static final SeriesKey PRESSURE = new SeriesKey("sensor-5", "pressure");

  private static final long TWELVE = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();

  /** Two hours, a reading every ten seconds, but none from 12:20 to 12:50. */
  private static final List<Measurement> READINGS =
      SeriesBuckets.readings(SERIES, TWELVE, 720, 10_000).stream()
          .filter(m -> m.timestamp() < at("12:20") || m.timestamp() >= at("12:50"))
          .toList();

  /** What some minutes of the hour of 12, stored at schema_version 4, counted. */
  private static final Map<Long, WindowQuality> COUNTS =
      Map.of(
          at("12:03"), new WindowQuality(2, 0),
          at("12:07"), new WindowQuality(0, 1),
          at("12:16"), new WindowQuality(1, 3),
          at("12:55"), new WindowQuality(4, 0));

  private static final String STATISTICS = "/api/v1/series/sensor-5/statistics?metric=";
  private static final String BUCKETS = "/api/v1/series/sensor-5/buckets?metric=";

  private static SeriesApiFixture api;

  @BeforeAll
  static void serve() {
    api =
        SeriesApiFixture.start(
            new ExpectedIntervals(
                0, Map.of("temperature", Duration.ofSeconds(10), "pressure", Duration.ZERO)));
    api.store(
        SeriesBuckets.closed(PRESSURE, SeriesApiFixture.GRANULARITIES, READINGS),
        bucket ->
            bucket.windowStart() < at("13:00")
                ? CountedDocuments.learned(
                    CountedDocuments.of(bucket, MINUTE, COUNTS),
                    bucket.granularity(),
                    learnedInterval(bucket.granularity(), bucket.windowStart()))
                // written before schema_version 4, which learned none: not read
                : CountedDocuments.learned(
                    CountedDocuments.beforeCounts(bucket), bucket.granularity(), 4_000L));
    for (final SeriesKey series : List.of(SERIES, HUMIDITY)) {
      final List<ClosedBucket> buckets =
          SeriesBuckets.closed(series, SeriesApiFixture.GRANULARITIES, READINGS);
      // the hour of 12 written at schema_version 4, the hour of 13 before it
      api.store(
          buckets,
          bucket ->
              bucket.windowStart() < at("13:00")
                  ? CountedDocuments.of(bucket, MINUTE, COUNTS)
                  : CountedDocuments.beforeCounts(bucket));
    }
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void shouldAnswerARangesCountsAndCompletenessAfterItsQuantiles() throws Exception {
    final JsonNode body = api.ok(STATISTICS + "temperature" + range("12:00", "13:00"));

    assertThat(body.get("resends").asLong()).isEqualTo(7);
    assertThat(body.get("late_readings").asLong()).isEqualTo(4);
    assertThat(body.get("expected_interval_ms").asLong()).isEqualTo(10_000);
    assertThat(body.get("expected").asDouble()).isEqualTo(360.0);
    assertThat(body.get("count").asLong()).isEqualTo(readings("12:00", "13:00")).isEqualTo(180);
    assertThat(body.get("completeness").asDouble()).isEqualTo(0.5);
    assertThat(fieldNames(body))
        .containsSubsequence(
            "quantiles_missing",
            "resends",
            "late_readings",
            "expected_interval_ms",
            "expected",
            "completeness",
            "documents_read");
  }

  @Test
  void shouldCountAMinuteTheRangeCutsWholeAndLeaveCountsOfEarlierDocumentsUnknown()
      throws Exception {
    final JsonNode cut = api.ok(STATISTICS + "temperature" + range("12:03:30", "12:16:10"));
    final JsonNode intoOlder = api.ok(STATISTICS + "temperature" + range("12:55", "13:05"));

    assertThat(cut.get("resends").asLong()).isEqualTo(3);
    assertThat(cut.get("late_readings").asLong()).isEqualTo(4);
    assertThat(cut.get("expected").asDouble()).isCloseTo(76.0, within(1e-9));
    assertThat(intoOlder.get("resends").isNull()).isTrue();
    assertThat(intoOlder.get("late_readings").isNull()).isTrue();
    // the readings expected do not depend on the documents read
    assertThat(intoOlder.get("expected").asDouble()).isEqualTo(60.0);
    assertThat(intoOlder.get("completeness").asDouble())
        .isCloseTo(readings("12:55", "13:05") / 60.0, within(1e-12));
  }

  @Test
  void shouldGiveEachPointItsCountsAndAFilledPointNone() throws Exception {
    final JsonNode body =
        api.ok(BUCKETS + "temperature" + range("12:00", "13:00") + "&maxDataPoints=4&fill=null");

    final JsonNode points = body.get("buckets");
    assertThat(points).hasSize(4);
    final long[][] counts = {{2, 1}, {1, 3}, {0, 0}, {4, 0}};
    for (int i = 0; i < 4; i++) {
      final JsonNode point = points.get(i);
      final long start = at("12:00") + i * 900_000L;
      assertThat(point.get("resends").asLong()).as(point.toString()).isEqualTo(counts[i][0]);
      assertThat(point.get("late_readings").asLong()).as(point.toString()).isEqualTo(counts[i][1]);
      assertThat(point.get("expected_interval_ms").asLong()).isEqualTo(10_000);
      assertThat(point.get("expected").asDouble()).isEqualTo(90.0);
      assertThat(point.get("completeness").asDouble())
          .as(point.toString())
          .isCloseTo(readings(start, start + 900_000) / 90.0, within(1e-12));
    }
    // 12:30 to 12:45 has no reading: filled, nothing received of what was expected
    assertThat(points.get(2).get("filled").asText()).isEqualTo("null");
    assertThat(points.get(2).get("completeness").asDouble()).isZero();
    // 12:15 lost five of its fifteen minutes
    assertThat(points.get(1).get("completeness").asDouble()).isCloseTo(30 / 90.0, within(1e-12));
    assertThat(fieldNames(points.get(0)))
        .containsSubsequence("quantiles", "resends", "completeness", "open");
    assertThat(fieldNames(points.get(2)))
        .containsSubsequence("quantiles", "resends", "completeness", "open", "filled");
  }

  @Test
  void shouldAnswerNoExpectationForAMetricWithoutAnInterval() throws Exception {
    final JsonNode range = api.ok(STATISTICS + "humidity" + range("12:00", "13:00"));
    final JsonNode point =
        api.ok(BUCKETS + "humidity" + range("12:00", "13:00") + "&granularity=1h")
            .get("buckets")
            .get(0);

    for (final JsonNode answer : List.of(range, point)) {
      assertThat(answer.get("resends").asLong()).isEqualTo(7);
      assertThat(answer.has("expected_interval_ms")).isTrue();
      assertThat(answer.get("expected_interval_ms").isNull()).isTrue();
      assertThat(answer.get("learned_interval_ms").isNull()).isTrue();
      assertThat(answer.get("expected").isNull()).isTrue();
      assertThat(answer.get("completeness").isNull()).isTrue();
    }
  }

  @Test
  void shouldAnswerTheIntervalTheWindowsReadLearnedForALearnedMetric() throws Exception {
    // hour 12 learned 10 s; hour 13 is of schema_version 3, and left out
    final JsonNode both = api.ok(STATISTICS + "pressure" + range("12:00", "14:00"));
    final JsonNode older = api.ok(STATISTICS + "pressure" + range("13:00", "14:00"));

    assertThat(both.get("expected_interval_ms").isNull()).isTrue();
    assertThat(both.get("learned_interval_ms").asLong()).isEqualTo(10_000);
    assertThat(both.get("expected").asDouble()).isEqualTo(720.0);
    assertThat(both.get("completeness").asDouble())
        .isCloseTo(readings("12:00", "14:00") / 720.0, within(1e-12));
    assertThat(fieldNames(both))
        .containsSubsequence(
            "late_readings",
            "expected_interval_ms",
            "learned_interval_ms",
            "expected",
            "completeness");
    for (final String field : List.of("learned_interval_ms", "expected", "completeness")) {
      assertThat(older.get(field).isNull()).as(field).isTrue();
    }
    assertThat(older.get("count").asLong()).isPositive();
  }

  @Test
  void shouldWeighTheIntervalsOfCutMinutesByTheReadingsTheRangeHoldsOfThem() throws Exception {
    // 12:03 and 12:04 cut: each read raw, with its own document's interval
    final JsonNode cut = api.ok(STATISTICS + "pressure" + range("12:03:20", "12:04:40"));

    final List<Long> intervals = new ArrayList<>();
    for (final Measurement reading : READINGS) {
      if (reading.timestamp() >= at("12:03:20") && reading.timestamp() < at("12:04:40")) {
        intervals.add(learnedInterval(MINUTE, MINUTE.windowStart(reading.timestamp())));
      }
    }
    intervals.sort(null);
    final long median = intervals.get((intervals.size() - 1) / 2);
    assertThat(cut.get("learned_interval_ms").asLong()).isEqualTo(median);
    assertThat(cut.get("expected").asDouble()).isCloseTo(80_000.0 / median, within(1e-9));
  }

  @Test
  void shouldGiveEachPointOfALearnedMetricItsWindowsInterval() throws Exception {
    final JsonNode points =
        api.ok(BUCKETS + "pressure" + range("12:00", "14:00") + "&granularity=1h").get("buckets");

    assertThat(points).hasSize(2);
    assertThat(points.get(0).get("learned_interval_ms").asLong()).isEqualTo(10_000);
    assertThat(points.get(0).get("expected").asDouble()).isEqualTo(360.0);
    assertThat(points.get(0).get("completeness").asDouble())
        .isCloseTo(readings("12:00", "13:00") / 360.0, within(1e-12));
    assertThat(points.get(1).get("learned_interval_ms").isNull()).isTrue();
    assertThat(points.get(1).get("completeness").isNull()).isTrue();
    assertThat(fieldNames(points.get(0)))
        .containsSubsequence("expected_interval_ms", "learned_interval_ms", "expected", "open");
    // a configured interval learns none
    final JsonNode configured =
        api.ok(BUCKETS + "temperature" + range("12:00", "13:00") + "&granularity=1h")
            .get("buckets")
            .get(0);
    assertThat(configured.get("learned_interval_ms").isNull()).isTrue();
    assertThat(configured.get("expected_interval_ms").asLong()).isEqualTo(10_000);
  }

  /** The interval each window of hour 12 learned, as the test gives it: 12:03 and 12:04 differ. */
  private static Long learnedInterval(final Granularity granularity, final long start) {
    if (granularity.equals(MINUTE) && start == at("12:03")) {
      return 9_000L;
    }
    if (granularity.equals(MINUTE) && start == at("12:04")) {
      return 12_000L;
    }
    return 10_000L;
  }

  private static List<String> fieldNames(final JsonNode object) {
    final List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static long readings(final String from, final String to) {
    return readings(at(from), at(to));
  }

  private static long readings(final long from, final long to) {
    return READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).count();
  }

  private static String range(final String from, final String to) {
    return "&from=2026-11-22T" + seconds(from) + "Z&to=2026-11-22T" + seconds(to) + "Z";
  }

  private static String seconds(final String time) {
    return time.length() == 5 ? time + ":00" : time;
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + seconds(time) + "Z").toEpochMilli();
  }
}
