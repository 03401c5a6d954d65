package io.bucketer.http;

import static io.bucketer.http.SeriesApiFixture.GRANULARITIES;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.SeriesBuckets;
import io.bucketer.testing.SketchedDocuments;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quantiles over HTTP: a range's and each chart point's, the levels a request asks for, the 400s of
 * malformed levels, and none, with the reason, where a document lacks its sketch. A sketch merged
 * from stored sketches is the sketch of the readings themselves, byte for byte, so each answer must
 * equal the quantile of a sketch built here from the readings sent.
 */
class QuantilesApiTest {

  private static final SeriesKey SERIES = new SeriesKey("sensor-q", "latency");

  /** Stored as written before sketches were kept. */
  private static final SeriesKey OLDER = new SeriesKey("sensor-old", "latency");

  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
  private static final List<Measurement> READINGS = SeriesBuckets.readings(SERIES, START, 7_200);
  private static final String STATISTICS = "/api/v1/series/sensor-q/statistics?metric=latency";
  private static final String BUCKETS = "/api/v1/series/sensor-q/buckets?metric=latency";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern INTERNAL_NAME =
      Pattern.compile("Exception|java\\.|io\\.bucketer|NumberFormat", Pattern.CASE_INSENSITIVE);

  private static SeriesApiFixture api;

  @BeforeAll
  static void serve() {
    api = SeriesApiFixture.start();
    api.storeSketched(SERIES, READINGS);
    api.store(
        SeriesBuckets.closed(OLDER, GRANULARITIES, SeriesBuckets.readings(OLDER, START, 3_600)),
        SketchedDocuments::without);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void shouldAnswerP50P90P95AndP99OfARangeThatCutsHours() throws Exception {
    final long from = at("12:30") + 15_500;
    final long to = at("13:20") + 7_250;
    final JsonNode body = api.ok(STATISTICS + range(from, to));

    final ValueSketch expected = sketchOf(from, to);
    assertThat(fieldNames(body.get("quantiles"))).containsExactly("p50", "p90", "p95", "p99");
    assertThat(body.get("quantiles").get("p50").asDouble())
        .isEqualTo(expected.quantile(0.5).orElseThrow());
    assertThat(body.get("quantiles").get("p95").asDouble())
        .isEqualTo(expected.quantile(0.95).orElseThrow());
    assertThat(body.get("quantiles").get("p99").asDouble())
        .isEqualTo(expected.quantile(0.99).orElseThrow());
    assertThat(body.get("quantile_relative_accuracy").asDouble()).isEqualTo(0.01);
    assertThat(body.get("quantiles_missing").isNull()).isTrue();
    assertThat(body.get("count").asLong()).isEqualTo(expected.count());
  }

  @Test
  void shouldAnswerTheLevelsAskedNamedByTheirPercentiles() throws Exception {
    final JsonNode body =
        api.ok(STATISTICS + "&quantiles=0.5,0.999,1,0,0.50" + range(at("12:00"), at("14:00")));

    final ValueSketch expected = sketchOf(at("12:00"), at("14:00"));
    // 0.50 is 0.5 again, answered once
    assertThat(fieldNames(body.get("quantiles"))).containsExactly("p50", "p99.9", "p100", "p0");
    assertThat(body.get("quantiles").get("p99.9").asDouble())
        .isEqualTo(expected.quantile(0.999).orElseThrow());
    assertThat(body.get("quantiles").get("p0").asDouble())
        .isEqualTo(expected.quantile(0).orElseThrow());
  }

  @Test
  void shouldAnswerNullQuantilesOfAnEmptyRange() throws Exception {
    final JsonNode body = api.ok(STATISTICS + range(at("15:00"), at("16:00")));

    assertThat(body.get("count").asLong()).isZero();
    assertThat(body.get("quantiles").get("p95").isNull()).isTrue();
    assertThat(body.get("quantiles_missing").isNull()).isTrue();
  }

  @Test
  void shouldSayWhyARangeOverDocumentsWithoutSketchesHasNoQuantiles() throws Exception {
    final JsonNode body =
        api.ok(
            "/api/v1/series/sensor-old/statistics?metric=latency"
                + range(at("12:00"), at("13:00")));

    assertThat(body.get("count").asLong()).isPositive();
    assertThat(body.get("quantiles").isNull()).isTrue();
    assertThat(body.get("quantile_relative_accuracy").asDouble()).isEqualTo(0.01);
    assertThat(body.get("quantiles_missing").asText()).isEqualTo("window_without_sketch");
  }

  @Test
  void shouldGiveEachChartPointItsQuantilesAndFilledPointsNone() throws Exception {
    final JsonNode body =
        api.ok(
            BUCKETS
                + "&granularity=1m&quantiles=0.5,0.95&fill=null"
                + range(at("13:58"), at("14:03")));

    final JsonNode buckets = body.get("buckets");
    assertThat(buckets).hasSize(5);
    for (int i = 0; i < 2; i++) {
      final long start = at("13:58") + i * 60_000L;
      final ValueSketch expected = sketchOf(start, start + 60_000);
      final JsonNode quantiles = buckets.get(i).get("quantiles");
      assertThat(fieldNames(quantiles)).containsExactly("p50", "p95");
      assertThat(quantiles.get("p95").asDouble()).isEqualTo(expected.quantile(0.95).orElseThrow());
    }
    // the readings end at 14:00: the points after are filled, without quantiles
    for (int i = 2; i < 5; i++) {
      assertThat(buckets.get(i).get("filled").asText()).isEqualTo("null");
      assertThat(buckets.get(i).get("quantiles").isNull()).isTrue();
    }
  }

  @Test
  void shouldGiveAPointOfManyMinutesTheQuantilesOfAllItsReadings() throws Exception {
    final JsonNode body = api.ok(BUCKETS + "&maxDataPoints=4" + range(at("12:00"), at("14:00")));

    final JsonNode buckets = body.get("buckets");
    assertThat(body.get("resolution").get("read_from").asText()).isEqualTo("buckets_1h summaries");
    assertThat(buckets).hasSize(4);
    for (final JsonNode bucket : buckets) {
      final long start = Instant.parse(bucket.get("start").asText()).toEpochMilli();
      final long end = Instant.parse(bucket.get("end").asText()).toEpochMilli();
      assertThat(bucket.get("quantiles").get("p99").asDouble())
          .isEqualTo(sketchOf(start, end).quantile(0.99).orElseThrow());
    }
  }

  @Test
  void shouldRefuseMalformedLevelsWithAMessageAndNoInternalName() throws Exception {
    final String hour = range(at("12:00"), at("13:00"));
    final String tooMany = "0.5" + ",0.5".repeat(20);
    for (final String levels :
        List.of(
            "1.5",
            "-0.1",
            "abc",
            "NaN",
            "Infinity",
            "0x1p-1",
            "1d",
            "0.5,,0.9",
            "0.5,",
            "%20",
            tooMany,
            "0." + "9".repeat(30))) {
      for (final String resource : List.of(STATISTICS, BUCKETS + "&granularity=1m")) {
        final HttpResponse<String> response =
            api.get(resource + "&quantiles=" + levels.replace(",", "%2C") + hour);
        assertThat(response.statusCode()).as(levels).isEqualTo(400);
        final String error = JSON.readTree(response.body()).get("error").asText();
        assertThat(error).as(levels).startsWith("quantiles must be up to 20 comma-separated");
        assertThat(INTERNAL_NAME.matcher(response.body()).find()).as(response.body()).isFalse();
      }
    }
    assertThat(
            JSON.readTree(api.get(STATISTICS + "&quantiles=0.5,2" + hour).body())
                .get("error")
                .asText())
        .endsWith("number 2 is not");
    assertThat(
            JSON.readTree(api.get(STATISTICS + "&quantiles=" + tooMany + hour).body())
                .get("error")
                .asText())
        .endsWith("21 were given");
  }

  private static ValueSketch sketchOf(final long from, final long to) {
    return ValueSketch.of(
        READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList(),
        Measurement::value,
        ValueSketch.DEFAULT_RELATIVE_ACCURACY);
  }

  private static List<String> fieldNames(final JsonNode object) {
    final List<String> names = new ArrayList<>();
    final Iterator<String> iterator = object.fieldNames();
    iterator.forEachRemaining(names::add);
    return names;
  }

  private static String range(final long from, final long to) {
    return "&from=" + Instant.ofEpochMilli(from) + "&to=" + Instant.ofEpochMilli(to);
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }
}
