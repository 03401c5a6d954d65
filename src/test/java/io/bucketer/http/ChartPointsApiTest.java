package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.testing.SeriesBuckets;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /buckets} without a granularity, over HTTP: the resolution picked for {@code
 * maxDataPoints} or {@code interval_ms} and said in the answer, points widened to stay within
 * {@code query.max.points}, gaps filled, the granularity's answer as before when one is given, and
 * a 400 with a message for every malformed chart parameter. The example of docs/querying.md is this
 * test's answer.
 */
class ChartPointsApiTest {

  private static final SeriesKey SERIES = new SeriesKey("sensor-3", "temperature");
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();

  /** Two hours, a reading every ten seconds, but none from 12:20 to 12:50. */
  private static final List<Measurement> READINGS =
      SeriesBuckets.readings(SERIES, START, 720, 10_000).stream()
          .filter(m -> m.timestamp() < at("12:20") || m.timestamp() >= at("12:50"))
          .toList();

  private static final String BUCKETS = "/api/v1/series/sensor-3/buckets?metric=temperature";
  private static final String ONE_HOUR = "&from=2026-11-22T12:00:00Z&to=2026-11-22T13:00:00Z";
  private static final String TWO_HOURS = "&from=2026-11-22T12:00:00Z&to=2026-11-22T14:00:00Z";

  /** The request of docs/querying.md's example, and the answer it shows. */
  static final String DOCUMENTED_REQUEST = BUCKETS + ONE_HOUR + "&maxDataPoints=4&fill=previous";

  private static final Pattern INTERNAL_NAME =
      Pattern.compile(
          "Exception|java\\.|io\\.bucketer|NumberFormat|Long\\.", Pattern.CASE_INSENSITIVE);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static SeriesApiFixture api;

  @BeforeAll
  static void serve() {
    api = SeriesApiFixture.start();
    // The documents the sink writes, each with the quantile sketch of its window's readings.
    api.storeSketched(SERIES, READINGS);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void shouldPickTheResolutionForMaxDataPointsFillTheGapAndSayWhatItRead() throws Exception {
    final JsonNode body = api.ok(DOCUMENTED_REQUEST);

    assertThat(body.get("granularity").asText()).isEqualTo("15m");
    assertThat(body.get("resolution").toString())
        .isEqualTo(
            "{\"granularity\":\"1m\",\"read_from\":\"buckets_1h summaries\","
                + "\"point_ms\":900000,\"widened\":false}");
    assertThat(body.get("documents_read").asLong()).isEqualTo(1);
    final JsonNode buckets = body.get("buckets");
    assertThat(buckets).hasSize(4);
    for (int i = 0; i < 4; i++) {
      final long start = at("12:00") + i * 900_000L;
      assertThat(buckets.get(i).get("start").asText())
          .isEqualTo(Instant.ofEpochMilli(start).toString());
      assertThat(buckets.get(i).get("count").asLong())
          .isEqualTo(between(start, start + 900_000).size());
    }
    // 12:30 to 12:45 has no reading: the last value of 12:15's point, marked as filled
    final JsonNode filled = buckets.get(2);
    assertThat(filled.get("filled").asText()).isEqualTo("previous");
    assertThat(filled.get("avg").asDouble())
        .isEqualTo(buckets.get(1).get("last").get("value").asDouble())
        .isEqualTo(
            between(at("12:15"), at("12:30"))
                .get(between(at("12:15"), at("12:30")).size() - 1)
                .value());
    assertThat(filled.get("min")).isEqualTo(filled.get("avg"));
    assertThat(filled.get("max")).isEqualTo(filled.get("avg"));
    assertThat(filled.get("sum").isNull()).isTrue();
    assertThat(filled.get("last").isNull()).isTrue();
    assertThat(buckets.get(1).has("filled")).as("a point with readings is not filled").isFalse();
  }

  @Test
  void shouldAnswerAsTheExampleOfTheDocsShows() throws Exception {
    final String docs = Files.readString(Path.of("docs/querying.md"));
    final int request = docs.indexOf("GET " + DOCUMENTED_REQUEST);
    assertThat(request).as("docs/querying.md shows the request").isPositive();
    final int open = docs.indexOf("```json", request);
    final JsonNode documented =
        JSON.readTree(docs.substring(open + "```json".length(), docs.indexOf("```", open + 7)));

    // every field the docs show, as the API answers it (a field added later may be left out)
    assertShown("", documented, api.ok(DOCUMENTED_REQUEST));
  }

  @Test
  void shouldTakeTheWiderOfTheIntervalAndTheStepOfTheCount() throws Exception {
    // Grafana's $__interval_ms of 20 minutes against 4 points an hour
    final JsonNode body = api.ok(BUCKETS + ONE_HOUR + "&maxDataPoints=4&interval_ms=1200000");

    assertThat(body.get("granularity").asText()).isEqualTo("20m");
    assertThat(body.get("resolution").get("point_ms").asLong()).isEqualTo(1_200_000);
    // 12:00 and 12:40; 12:20 to 12:40 has no reading, and no fill is asked for
    assertThat(body.get("buckets")).hasSize(2);
    assertThat(body.get("buckets").get(1).get("start").asText()).isEqualTo("2026-11-22T12:40:00Z");
  }

  @Test
  void shouldWidenThePointsRatherThanAnswerMoreThanTheLimit() throws Exception {
    // 1,000 points of two hours would be 120 minutes; the limit is 100 points
    final JsonNode body = api.ok(BUCKETS + TWO_HOURS + "&maxDataPoints=1000&fill=null");

    assertThat(body.get("resolution").get("widened").asBoolean()).isTrue();
    assertThat(body.get("resolution").get("point_ms").asLong()).isEqualTo(120_000);
    assertThat(body.get("granularity").asText()).isEqualTo("2m");
    assertThat(body.get("buckets")).hasSize(60);
  }

  @Test
  void shouldAnswerAGivenGranularityAsBeforeWithGapsFilledIfAsked() throws Exception {
    final JsonNode plain = api.ok(BUCKETS + ONE_HOUR + "&granularity=1m&maxDataPoints=4");
    final JsonNode filled = api.ok(BUCKETS + ONE_HOUR + "&granularity=1m&fill=null");

    // the granularity wins over maxDataPoints: a window a point, the 30 empty minutes left out
    assertThat(plain.get("granularity").asText()).isEqualTo("1m");
    assertThat(plain.get("buckets")).hasSize(30);
    assertThat(plain.get("resolution").get("point_ms").asLong()).isEqualTo(60_000);
    assertThat(filled.get("buckets")).hasSize(60);
    assertThat(filled.get("buckets").get(25).get("filled").asText()).isEqualTo("null");
    assertThat(filled.get("buckets").get(25).get("avg").isNull()).isTrue();
    assertThat(filled.get("buckets").get(25).get("count").asLong()).isZero();
    assertThat(filled.get("buckets").get(10)).isEqualTo(plain.get("buckets").get(10));
  }

  @Test
  void shouldRefuseMalformedChartParametersWithAMessageNamingNothingInternal() throws Exception {
    assertRefused(BUCKETS + ONE_HOUR, "granularity is required, one of [1m, 1h], unless");
    assertRefused(BUCKETS + ONE_HOUR + "&maxDataPoints=0", "maxDataPoints must be between 1");
    assertRefused(BUCKETS + ONE_HOUR + "&maxDataPoints=-4", "maxDataPoints must be between 1");
    assertRefused(BUCKETS + ONE_HOUR + "&maxDataPoints=4.5", "maxDataPoints is not a whole");
    assertRefused(BUCKETS + ONE_HOUR + "&maxDataPoints=abc", "maxDataPoints is not a whole");
    assertRefused(
        BUCKETS + ONE_HOUR + "&maxDataPoints=99999999999999999999", "maxDataPoints is not a");
    assertRefused(
        BUCKETS + ONE_HOUR + "&maxDataPoints=2147483648", "maxDataPoints must be between 1");
    assertRefused(BUCKETS + ONE_HOUR + "&interval_ms=0", "interval_ms must be between 1");
    assertRefused(BUCKETS + ONE_HOUR + "&interval_ms=1e3", "interval_ms is not a whole");
    // longer than the longest range: no point could be drawn
    assertRefused(
        BUCKETS + ONE_HOUR + "&interval_ms=86400001", "interval_ms must be between 1 and 86400000");
    assertRefused(BUCKETS + ONE_HOUR + "&maxDataPoints=4&fill=zero", "fill must be one of none,");
    assertRefused(BUCKETS + ONE_HOUR + "&granularity=1m&fill=NULL", "fill must be one of");
    assertRefused(BUCKETS + ONE_HOUR + "&granularity=1m&interval_ms=-1", "interval_ms must be");
  }

  private static void assertRefused(final String path, final String message) throws Exception {
    final HttpResponse<String> response = api.get(path);
    assertThat(response.statusCode()).as(path).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).get("error").asText()).as(path).contains(message);
    assertThat(response.body()).as(path).doesNotContainPattern(INTERNAL_NAME);
  }

  /** Each field of {@code shown}, at any depth, equals that of {@code answer}. */
  private static void assertShown(final String where, final JsonNode shown, final JsonNode answer) {
    if (shown.isObject()) {
      assertThat(answer.isObject()).as(where).isTrue();
      for (final Iterator<String> names = shown.fieldNames(); names.hasNext(); ) {
        final String name = names.next();
        assertThat(answer.has(name)).as(where + "." + name).isTrue();
        assertShown(where + "." + name, shown.get(name), answer.get(name));
      }
    } else if (shown.isArray()) {
      assertThat(answer).as(where).hasSize(shown.size());
      for (int i = 0; i < shown.size(); i++) {
        assertShown(where + "[" + i + "]", shown.get(i), answer.get(i));
      }
    } else if (shown.isNumber()) {
      assertThat(answer.isNumber()).as(where).isTrue();
      assertThat(answer.asDouble()).as(where).isEqualTo(shown.asDouble());
    } else {
      assertThat(answer).as(where).isEqualTo(shown);
    }
  }

  private static List<Measurement> between(final long from, final long to) {
    return READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }
}
