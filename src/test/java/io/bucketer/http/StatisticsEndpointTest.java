package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.sun.net.httpserver.HttpServer;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.StoredRangeStatistics;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.SeriesBuckets;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StatisticsEndpointTest {

  private static final List<Granularity> GRANULARITIES = Granularity.parseList("1m,1h");
  private static final SeriesKey SERIES = new SeriesKey("sensor 7/a", "temperature");
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
  private static final List<Measurement> READINGS = SeriesBuckets.readings(SERIES, START, 7_200);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static EmbeddedMongoServer mongo;
  private static MongoClient client;
  private static HttpServer http;

  @BeforeAll
  static void serve() throws Exception {
    mongo = EmbeddedMongoServer.start();
    client = MongoClients.create(mongo.connectionString());
    new MongoBucketWriter(client.getDatabase("iot"), "buckets_", GRANULARITIES, 500, 4)
        .write(SeriesBuckets.closed(SERIES, GRANULARITIES, READINGS), Duration.ofSeconds(30));
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        StatisticsEndpoint.PATH,
        new StatisticsEndpoint(
            new StoredRangeStatistics(client.getDatabase("iot"), "buckets_", GRANULARITIES),
            Duration.ofDays(1)));
    http.start();
  }

  @AfterAll
  static void stop() {
    http.stop(0);
    client.close();
    mongo.close();
  }

  @Test
  void shouldAnswerAnHourFromOneDocument() throws Exception {
    final HttpResponse<String> response =
        get(
            "/api/v1/series/sensor%207%2Fa/statistics?metric=temperature"
                + "&from=2026-11-22T13:00:00Z&to=2026-11-22T14:00:00Z");

    assertThat(response.statusCode()).isEqualTo(200);
    final JsonNode body = JSON.readTree(response.body());
    final long from = Instant.parse("2026-11-22T13:00:00Z").toEpochMilli();
    final List<Measurement> hour =
        READINGS.stream()
            .filter(m -> m.timestamp() >= from && m.timestamp() < from + 3_600_000)
            .toList();
    assertThat(body.get("sensor_id").asText()).isEqualTo("sensor 7/a");
    assertThat(body.get("count").asLong()).isEqualTo(hour.size());
    assertThat(body.get("max").asDouble())
        .isEqualTo(hour.stream().mapToDouble(Measurement::value).max().orElseThrow());
    assertThat(body.get("documents_read").asLong()).isEqualTo(1);
  }

  @Test
  void shouldRefuseMalformedRequestsWithAMessage() throws Exception {
    final String series = "/api/v1/series/sensor%207%2Fa/statistics?metric=temperature";
    assertRefused(series + "&from=2026-11-22T14:00:00Z&to=2026-11-22T13:00:00Z", "before");
    assertRefused(series + "&from=yesterday&to=2026-11-22T13:00:00Z", "ISO-8601");
    assertRefused(series + "&to=2026-11-22T13:00:00Z", "from is required");
    assertRefused(series + "&from=2026-11-01T00:00:00Z&to=2026-11-22T13:00:00Z", "limit");
  }

  @Test
  void shouldSayNotFoundForAnUnknownSeries() throws Exception {
    final HttpResponse<String> response =
        get(
            "/api/v1/series/sensor-9/statistics?metric=temperature"
                + "&from=2026-11-22T13:00:00Z&to=2026-11-22T14:00:00Z");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(response.body()).get("error").asText()).contains("sensor-9");
  }

  private static void assertRefused(final String path, final String message) throws Exception {
    final HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(path).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).get("error").asText()).contains(message);
  }

  private static HttpResponse<String> get(final String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + http.getAddress().getPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
