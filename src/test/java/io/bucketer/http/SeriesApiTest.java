package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.SeriesOwner;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.GoldenBuckets;
import io.bucketer.testing.ReadingTotals;
import io.bucketer.testing.SeriesBuckets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query API over HTTP, from stored buckets: answers, the 400s and 404s, and forwarding to the
 * instance that holds a series (two APIs on two ports, each told the other holds some series).
 */
class SeriesApiTest {

  private static final List<Granularity> GRANULARITIES = Granularity.parseList("1m,1h");
  private static final SeriesKey SERIES = new SeriesKey("sensor 7/a", "temperature");
  private static final SeriesKey ELSEWHERE = new SeriesKey("sensor-8", "temperature");
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
  private static final List<Measurement> READINGS = SeriesBuckets.readings(SERIES, START, 7_200);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SERIES_STATISTICS =
      "/api/v1/series/sensor%207%2Fa/statistics?metric=temperature";
  private static final String ELSEWHERE_STATISTICS =
      "/api/v1/series/sensor-8/statistics?metric=temperature";
  private static final String ONE_HOUR = "&from=2026-11-22T13:00:00Z&to=2026-11-22T14:00:00Z";
  private static final QueryLimits LIMITS =
      new QueryLimits(Duration.ofDays(1), 100, Duration.ofSeconds(30));

  private static EmbeddedMongoServer mongo;
  private static MongoClient client;
  private static OpsServer here;
  private static OpsServer there;

  /** What {@link #here} is told about {@link #ELSEWHERE}. */
  private static final AtomicReference<SeriesOwner> ELSEWHERE_OWNER = new AtomicReference<>();

  @BeforeAll
  static void serve() throws Exception {
    mongo = EmbeddedMongoServer.start();
    client = MongoClients.create(mongo.connectionString());
    final List<io.bucketer.buckets.ClosedBucket> buckets = new ArrayList<>();
    buckets.addAll(SeriesBuckets.closed(SERIES, GRANULARITIES, READINGS));
    buckets.addAll(
        SeriesBuckets.closed(
            ELSEWHERE, GRANULARITIES, SeriesBuckets.readings(ELSEWHERE, START, 7_200)));
    // schema_version 3: time-weighted parts
    buckets.addAll(List.of(GoldenBuckets.MINUTE_BUCKET_V3, GoldenBuckets.HOUR_BUCKET_V3));
    new MongoBucketWriter(
            client.getDatabase("iot"), "buckets_", GRANULARITIES, Retention.NONE, 500, 4)
        .write(buckets, Duration.ofSeconds(30));
    here = TestServers.bind(HttpSecurity.DEFAULT);
    there = TestServers.bind(HttpSecurity.DEFAULT);
    final String hereName = "127.0.0.1:" + here.port();
    final String thereName = "127.0.0.1:" + there.port();
    ELSEWHERE_OWNER.set(new SeriesOwner.Remote("127.0.0.1", there.port()));
    serve(
        here,
        api(
            series ->
                series.equals(ELSEWHERE)
                    ? ELSEWHERE_OWNER.get()
                    : new SeriesOwner.Local(LiveWindows.NONE),
            hereName));
    // "there" believes "here" holds SERIES: a request forwarded to it must not bounce back.
    serve(
        there,
        api(
            series ->
                series.equals(ELSEWHERE)
                    ? new SeriesOwner.Local(LiveWindows.NONE)
                    : new SeriesOwner.Remote("127.0.0.1", here.port()),
            thereName));
  }

  private static void serve(final OpsServer server, final SeriesApi api) {
    server.serve(() -> "", () -> true, Optional::empty, Map.of(SeriesApi.PATH, api));
  }

  private static SeriesApi api(final Function<SeriesKey, SeriesOwner> owners, final String self) {
    return new SeriesApi(
        new SeriesQueries(
            new StoredBuckets(
                client.getDatabase("iot"), "buckets_", GRANULARITIES, Duration.ofSeconds(30)),
            Retention.NONE,
            Clock.systemUTC(),
            WindowComputations.DEFAULT,
            IntegralUnits.parse("temperature=hours")),
        owners,
        LIMITS,
        self);
  }

  @AfterAll
  static void stop() {
    here.close();
    there.close();
    client.close();
    mongo.close();
  }

  @Test
  void shouldAnswerAnHourFromOneDocument() throws Exception {
    final HttpResponse<String> response = get(here, SERIES_STATISTICS + ONE_HOUR);

    assertThat(response.statusCode()).isEqualTo(200);
    final JsonNode body = JSON.readTree(response.body());
    final List<Measurement> hour = between(at("13:00"), at("14:00"));
    assertThat(body.get("sensor_id").asText()).isEqualTo("sensor 7/a");
    assertThat(body.get("count").asLong()).isEqualTo(hour.size());
    assertThat(body.get("max").asDouble())
        .isEqualTo(hour.stream().mapToDouble(Measurement::value).max().orElseThrow());
    final ReadingTotals expected = ReadingTotals.of(hour);
    assertThat(body.get("stddev").asDouble()).isCloseTo(expected.standardDeviation(), within(1e-9));
    assertThat(body.get("first").get("timestamp").asText())
        .isEqualTo(Instant.ofEpochMilli(expected.first().timestamp()).toString());
    assertThat(body.get("first").get("value").asDouble()).isEqualTo(expected.first().value());
    assertThat(body.get("last").get("value").asDouble()).isEqualTo(expected.last().value());
    assertThat(body.get("documents_read").asLong()).isEqualTo(1);
    assertThat(body.get("state_windows_read").asLong()).isZero();
  }

  @Test
  void shouldListTheWindowsOfAGranularityForCharts() throws Exception {
    final HttpResponse<String> response =
        get(
            here,
            "/api/v1/series/sensor%207%2Fa/buckets?metric=temperature&granularity=1m"
                + "&from=2026-11-22T13:00:30Z&to=2026-11-22T13:10:00Z");

    assertThat(response.statusCode()).isEqualTo(200);
    final JsonNode body = JSON.readTree(response.body());
    assertThat(body.get("granularity").asText()).isEqualTo("1m");
    final JsonNode buckets = body.get("buckets");
    // the minute cut by `from` is listed whole: a chart point is a whole window
    assertThat(buckets).hasSize(10);
    for (int minute = 0; minute < 10; minute++) {
      final JsonNode bucket = buckets.get(minute);
      final long start = at("13:00") + minute * 60_000L;
      final List<Measurement> inMinute = between(start, start + 60_000);
      assertThat(Instant.parse(bucket.get("start").asText()).toEpochMilli()).isEqualTo(start);
      assertThat(bucket.get("count").asLong()).isEqualTo(inMinute.size());
      assertThat(bucket.get("min").asDouble())
          .isEqualTo(inMinute.stream().mapToDouble(Measurement::value).min().orElseThrow());
      assertThat(bucket.get("open").asBoolean()).isFalse();
      assertThat(bucket.get("last").get("value").asDouble())
          .isEqualTo(inMinute.get(inMinute.size() - 1).value());
      assertThat(bucket.get("stddev").isNumber()).isTrue();
    }
    // the ten minutes are summaries in the document of the hour 13:00
    assertThat(body.get("documents_read").asLong()).isEqualTo(1);
  }

  @Test
  void shouldGiveEachWindowItsTimeWeightedAverageAndCoverageWhereItsDocumentHoldsThem()
      throws Exception {
    final String range = "&from=2023-11-14T22:00:00Z&to=2023-11-14T23:00:00Z";
    final HttpResponse<String> hourResponse =
        get(here, "/api/v1/series/sensor-1/buckets?metric=temperature&granularity=1h" + range);
    assertThat(hourResponse.statusCode()).as(hourResponse.body()).isEqualTo(200);
    final JsonNode hours = JSON.readTree(hourResponse.body()).get("buckets");
    final JsonNode minutes =
        JSON.readTree(
                get(
                        here,
                        "/api/v1/series/sensor-1/buckets?metric=temperature&granularity=1m" + range)
                    .body())
            .get("buckets");
    final JsonNode older =
        JSON.readTree(
                get(
                        here,
                        "/api/v1/series/sensor%207%2Fa/buckets?metric=temperature&granularity=1h"
                            + "&from=2026-11-22T13:00:00Z&to=2026-11-22T14:00:00Z")
                    .body())
            .get("buckets");

    assertThat(hours).hasSize(1);
    assertThat(hours.get(0).get("twa").asDouble()).isEqualTo(7_827_500.0 / 362_000);
    assertThat(hours.get(0).get("coverage").asDouble()).isEqualTo(362_000.0 / 3_600_000);
    assertThat(minutes).hasSize(2);
    assertThat(minutes.get(0).get("twa").asDouble()).isEqualTo(1_259_000.0 / 60_000);
    assertThat(minutes.get(1).get("coverage").asDouble()).isEqualTo(1.0);
    // documents without the parts answer null
    assertThat(older.get(0).get("twa").isNull()).isTrue();
    assertThat(older.get(0).get("coverage").isNull()).isTrue();
  }

  @Test
  void shouldGiveARangesTimeWeightedFieldsWithTheIntegralInItsMetricsUnit() throws Exception {
    final HttpResponse<String> response =
        get(
            here,
            "/api/v1/series/sensor-1/statistics?metric=temperature"
                + "&from=2023-11-14T22:00:00Z&to=2023-11-14T23:00:00Z");
    final JsonNode older = JSON.readTree(get(here, SERIES_STATISTICS + ONE_HOUR).body());

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    final JsonNode body = JSON.readTree(response.body());
    // the stored hour's part: 7,827.5 value·s over 362 s covered, in value·h for temperature
    assertThat(body.get("twa").asDouble()).isEqualTo(7_827_500.0 / 362_000);
    assertThat(body.get("integral").get("value").asDouble()).isEqualTo(7_827.5 / 3_600);
    assertThat(body.get("integral").get("unit").asText()).isEqualTo("value·h");
    assertThat(body.get("covered_ms").asLong()).isEqualTo(362_000);
    assertThat(body.get("coverage").asDouble()).isEqualTo(362_000.0 / 3_600_000);
    assertThat(body.get("gaps").asInt()).isEqualTo(2);
    assertThat(body.get("longest_gap_ms").asLong()).isEqualTo(2_458_000);
    assertThat(body.get("max_gap_ms").asLong()).isEqualTo(300_000);
    assertThat(body.get("interpolation").asText()).isEqualTo("step");
    assertThat(body.get("time_weighted_complete").asBoolean()).isTrue();
    assertThat(body.get("time_weighted_missing").isNull()).isTrue();
    // documents written before schema_version 3: none, and why
    for (final String field : List.of("twa", "integral", "covered_ms", "coverage", "gaps")) {
      assertThat(older.get(field).isNull()).as(field).isTrue();
    }
    assertThat(older.get("time_weighted_complete").asBoolean()).isFalse();
    assertThat(older.get("time_weighted_missing").asText()).isEqualTo("window_without_time_weight");
  }

  @Test
  void shouldListStoredSeriesAndGranularities() throws Exception {
    final JsonNode body = JSON.readTree(get(here, "/api/v1/series?prefix=sensor%207").body());

    assertThat(body.get("series")).hasSize(1);
    assertThat(body.get("series").get(0).get("sensor_id").asText()).isEqualTo("sensor 7/a");
    assertThat(body.get("series").get(0).get("metric").asText()).isEqualTo("temperature");
    assertThat(body.get("granularities").toString()).isEqualTo("[\"1m\",\"1h\"]");
    // and sensor-1, of the golden hour document
    assertThat(JSON.readTree(get(here, "/api/v1/series").body()).get("series")).hasSize(3);
  }

  @Test
  void shouldRefuseMalformedRequestsWithAMessage() throws Exception {
    final String statistics = SERIES_STATISTICS;
    assertRefused(statistics + "&from=2026-11-22T14:00:00Z&to=2026-11-22T13:00:00Z", "before");
    assertRefused(statistics + "&from=yesterday&to=2026-11-22T13:00:00Z", "ISO-8601");
    assertRefused(statistics + "&to=2026-11-22T13:00:00Z", "from is required");
    assertRefused(statistics + "&from=2026-11-01T00:00:00Z&to=2026-11-22T13:00:00Z", "limit");
    final String buckets = "/api/v1/series/sensor%207%2Fa/buckets?metric=temperature";
    final String range = "&from=2026-11-22T12:00:00Z&to=2026-11-22T14:00:00Z";
    assertRefused(buckets + range, "granularity is required");
    assertRefused(buckets + "&granularity=5m" + range, "one of [1m, 1h]");
    assertRefused(buckets + "&granularity=1m" + range, "120 windows");
    assertRefused("/api/v1/series?limit=0", "limit");
    // MongoDB's strings cannot hold NUL: refused here, before a query could fail on it (was 500).
    assertRefused("/api/v1/series?prefix=%00", "prefix holds a control character");
    assertRefused("/api/v1/series/sensor-8/statistics?metric=%00" + ONE_HOUR, "metric holds a");
    // In a path, the server itself refuses a NUL before the API sees it.
    assertRefused(
        "/api/v1/series/sensor%00/statistics?metric=temperature" + ONE_HOUR, "Bad Request");
  }

  @Test
  void shouldSayNotFoundForAnUnknownSeriesOrPath() throws Exception {
    final HttpResponse<String> response =
        get(here, "/api/v1/series/sensor-9/statistics?metric=temperature" + ONE_HOUR);

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(response.body()).get("error").asText()).contains("sensor-9");
    assertThat(get(here, "/api/v1/series/sensor-9/average").statusCode()).isEqualTo(404);
    // An empty segment is ambiguous: the server refuses it before the API sees it.
    assertThat(get(here, "/api/v1/series//statistics").statusCode()).isEqualTo(400);
  }

  @Test
  void shouldForwardASeriesAnotherInstanceHoldsAndRelayItsAnswer() throws Exception {
    final String path = ELSEWHERE_STATISTICS + ONE_HOUR;
    final HttpResponse<String> forwarded = get(here, path);
    final HttpResponse<String> direct = get(there, path);

    assertThat(forwarded.statusCode()).isEqualTo(200);
    assertThat(forwarded.headers().firstValue(QueryForwarder.SERVED_BY))
        .hasValue("127.0.0.1:" + there.port());
    assertThat(forwarded.body()).isEqualTo(direct.body());
  }

  @Test
  void shouldNotBounceARequestBetweenInstancesThatDisagree() throws Exception {
    // "there" thinks "here" holds SERIES; asked by "here" on a client's behalf, it must not
    // forward back, so ask it as "here" would.
    final HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(uri(there, SERIES_STATISTICS + ONE_HOUR))
                    .header(QueryForwarder.HEADER, "127.0.0.1:" + here.port())
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
  }

  @Test
  void shouldSayUnavailableWithRetryAfterWhileNoInstanceHoldsTheSeries() throws Exception {
    final SeriesOwner before =
        ELSEWHERE_OWNER.getAndSet(new SeriesOwner.Unavailable("rebalancing"));
    try {
      final HttpResponse<String> response = get(here, ELSEWHERE_STATISTICS + ONE_HOUR);

      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(JSON.readTree(response.body()).get("error").asText()).isEqualTo("rebalancing");
    } finally {
      ELSEWHERE_OWNER.set(before);
    }
  }

  @Test
  void shouldSayBadGatewayWhenTheHoldingInstanceDoesNotAnswer() throws Exception {
    final SeriesOwner before = ELSEWHERE_OWNER.getAndSet(new SeriesOwner.Remote("127.0.0.1", 1));
    try {
      final HttpResponse<String> response = get(here, ELSEWHERE_STATISTICS + ONE_HOUR);

      assertThat(response.statusCode()).isEqualTo(502);
      assertThat(JSON.readTree(response.body()).get("error").asText()).contains("127.0.0.1:1");
    } finally {
      ELSEWHERE_OWNER.set(before);
    }
  }

  @Test
  void shouldSayUnavailableWithRetryAfterWhenMongoDbDoesNotAnswer() throws Exception {
    final OpsServer nowhere = TestServers.bind(HttpSecurity.DEFAULT);
    try (MongoClient unreachable =
        MongoClients.create("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300")) {
      serve(
          nowhere,
          storedOnly(
              new SeriesQueries(
                  new StoredBuckets(
                      unreachable.getDatabase("iot"),
                      "buckets_",
                      GRANULARITIES,
                      Duration.ofSeconds(5))),
              LIMITS));

      final HttpResponse<String> response = get(nowhere, SERIES_STATISTICS + ONE_HOUR);

      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.headers().firstValue("Retry-After")).hasValue("5");
      assertThat(JSON.readTree(response.body()).get("error").asText()).contains("MongoDB");
    } finally {
      nowhere.close();
    }
  }

  private static void assertRefused(final String path, final String message) throws Exception {
    final HttpResponse<String> response = get(here, path);
    assertThat(response.statusCode()).as(path).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).get("error").asText()).as(path).contains(message);
  }

  private static List<Measurement> between(final long from, final long to) {
    return READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }

  private static URI uri(final OpsServer server, final String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private static HttpResponse<String> get(final OpsServer server, final String path)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(uri(server, path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** An API over MongoDB alone, on one instance, without a processor's open windows. */
  private static SeriesApi storedOnly(final SeriesQueries queries, final QueryLimits limits) {
    return new SeriesApi(queries, series -> new SeriesOwner.Local(LiveWindows.NONE), limits, "");
  }
}
