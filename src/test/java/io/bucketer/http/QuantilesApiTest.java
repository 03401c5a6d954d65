package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.SeriesOwner;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.SeriesBuckets;
import io.bucketer.testing.SketchedDocuments;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Quantiles over HTTP: a range's and each chart point's, the levels a request asks for, the 400s of
 * malformed levels, and none, with the reason, where a document lacks its sketch. A sketch merged
 * from stored sketches is the sketch of the readings themselves, byte for byte, so each answer must
 * equal the quantile of a sketch built here from the readings sent.
 */
class QuantilesApiTest {

  private static final List<Granularity> GRANULARITIES = Granularity.parseList("1m,1h");
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

  private static EmbeddedMongoServer mongo;
  private static MongoClient client;
  private static OpsServer server;

  @BeforeAll
  static void serve() {
    mongo = EmbeddedMongoServer.start();
    client = MongoClients.create(mongo.connectionString());
    final List<BsonDocument> minutes = new ArrayList<>();
    final List<BsonDocument> hours = new ArrayList<>();
    for (final ClosedBucket bucket : SeriesBuckets.closed(SERIES, GRANULARITIES, READINGS)) {
      (bucket.granularity().equals(GRANULARITIES.get(0)) ? minutes : hours)
          .add(SketchedDocuments.of(bucket, READINGS, ValueSketch.DEFAULT_RELATIVE_ACCURACY));
    }
    for (final ClosedBucket bucket :
        SeriesBuckets.closed(OLDER, GRANULARITIES, SeriesBuckets.readings(OLDER, START, 3_600))) {
      (bucket.granularity().equals(GRANULARITIES.get(0)) ? minutes : hours)
          .add(SketchedDocuments.without(bucket));
    }
    insert("buckets_1m", minutes);
    insert("buckets_1h", hours);
    server =
        TestServers.serve(
            Map.of(
                SeriesApi.PATH,
                new SeriesApi(
                    new SeriesQueries(
                        new StoredBuckets(
                            client.getDatabase("iot"),
                            "buckets_",
                            GRANULARITIES,
                            Duration.ofSeconds(30)),
                        Retention.NONE,
                        Clock.systemUTC(),
                        TimeWeightings.DEFAULT,
                        IntegralUnits.SECONDS,
                        SketchAccuracies.DEFAULT),
                    series -> new SeriesOwner.Local(LiveWindows.NONE),
                    new QueryLimits(Duration.ofDays(1), 100, Duration.ofSeconds(30)),
                    "")));
  }

  private static void insert(final String collection, final List<BsonDocument> documents) {
    Mono.from(
            client
                .getDatabase("iot")
                .getCollection(collection, BsonDocument.class)
                .insertMany(documents))
        .block(Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    server.close();
    client.close();
    mongo.close();
  }

  @Test
  void shouldAnswerP50P90P95AndP99OfARangeThatCutsHours() throws Exception {
    final long from = at("12:30") + 15_500;
    final long to = at("13:20") + 7_250;
    final JsonNode body = ok(STATISTICS + range(from, to));

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
        ok(STATISTICS + "&quantiles=0.5,0.999,1,0,0.50" + range(at("12:00"), at("14:00")));

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
    final JsonNode body = ok(STATISTICS + range(at("15:00"), at("16:00")));

    assertThat(body.get("count").asLong()).isZero();
    assertThat(body.get("quantiles").get("p95").isNull()).isTrue();
    assertThat(body.get("quantiles_missing").isNull()).isTrue();
  }

  @Test
  void shouldSayWhyARangeOverDocumentsWithoutSketchesHasNoQuantiles() throws Exception {
    final JsonNode body =
        ok("/api/v1/series/sensor-old/statistics?metric=latency" + range(at("12:00"), at("13:00")));

    assertThat(body.get("count").asLong()).isPositive();
    assertThat(body.get("quantiles").isNull()).isTrue();
    assertThat(body.get("quantile_relative_accuracy").asDouble()).isEqualTo(0.01);
    assertThat(body.get("quantiles_missing").asText()).isEqualTo("window_without_sketch");
  }

  @Test
  void shouldGiveEachChartPointItsQuantilesAndFilledPointsNone() throws Exception {
    final JsonNode body =
        ok(
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
    final JsonNode body = ok(BUCKETS + "&maxDataPoints=4" + range(at("12:00"), at("14:00")));

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
            get(resource + "&quantiles=" + levels.replace(",", "%2C") + hour);
        assertThat(response.statusCode()).as(levels).isEqualTo(400);
        final String error = JSON.readTree(response.body()).get("error").asText();
        assertThat(error).as(levels).startsWith("quantiles must be up to 20 comma-separated");
        assertThat(INTERNAL_NAME.matcher(response.body()).find()).as(response.body()).isFalse();
      }
    }
    assertThat(
            JSON.readTree(get(STATISTICS + "&quantiles=0.5,2" + hour).body()).get("error").asText())
        .endsWith("number 2 is not");
    assertThat(
            JSON.readTree(get(STATISTICS + "&quantiles=" + tooMany + hour).body())
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

  private static JsonNode ok(final String path) throws Exception {
    final HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> get(final String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
