package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
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
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.SeriesBuckets;
import io.bucketer.testing.SketchedDocuments;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.bson.BsonDocument;
import reactor.core.publisher.Mono;

/**
 * The series API over stored documents, for tests that ask it over HTTP: a MongoDB stand-in with
 * minute and hour collections, and {@link SeriesApi} on a free loopback port reading them with the
 * default query settings (no retention, the default max gap and sketch accuracy, no expected
 * interval unless given), no open windows, at most 100 points and a day per range.
 */
final class SeriesApiFixture implements AutoCloseable {

  static final List<Granularity> GRANULARITIES = Granularity.parseList("1m,1h");

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final EmbeddedMongoServer mongo;
  private final MongoClient client;
  private final OpsServer server;

  private SeriesApiFixture(
      final EmbeddedMongoServer mongo, final ExpectedIntervals expectedIntervals) {
    this.mongo = mongo;
    this.client = MongoClients.create(mongo.connectionString());
    this.server =
        TestServers.serve(
            Map.of(
                SeriesApi.PATH,
                new SeriesApi(
                    new SeriesQueries(
                        new StoredBuckets(
                            client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT),
                        Retention.NONE,
                        Clock.systemUTC(),
                        WindowComputations.DEFAULT.withExpectedIntervals(expectedIntervals),
                        IntegralUnits.SECONDS),
                    series -> new SeriesOwner.Local(LiveWindows.NONE),
                    new QueryLimits(Duration.ofDays(1), 100, TIMEOUT),
                    "")));
  }

  /** Serves the API over a MongoDB stand-in that holds no document yet. */
  static SeriesApiFixture start() {
    return start(ExpectedIntervals.NONE);
  }

  /** As {@link #start()}, each series expected to send at its interval in {@code intervals}. */
  static SeriesApiFixture start(final ExpectedIntervals intervals) {
    return new SeriesApiFixture(EmbeddedMongoServer.start(), intervals);
  }

  /**
   * Stores the documents the sink writes for {@code readings} of {@code series}, each window with
   * the quantile sketch of its readings at the default accuracy.
   */
  void storeSketched(final SeriesKey series, final List<Measurement> readings) {
    store(
        SeriesBuckets.closed(series, GRANULARITIES, readings),
        bucket -> SketchedDocuments.of(bucket, readings, ValueSketch.DEFAULT_RELATIVE_ACCURACY));
  }

  /**
   * Stores each bucket as {@code document} writes it, in its granularity's collection, in order.
   */
  void store(
      final List<ClosedBucket> buckets, final Function<ClosedBucket, BsonDocument> document) {
    for (final ClosedBucket bucket : buckets) {
      Mono.from(
              client
                  .getDatabase("iot")
                  .getCollection("buckets_" + bucket.granularity().label(), BsonDocument.class)
                  .insertOne(document.apply(bucket)))
          .block(TIMEOUT);
    }
  }

  /** The body of a 200 answer to {@code path}, failing the test on any other status. */
  JsonNode ok(final String path) throws Exception {
    final HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  HttpResponse<String> get(final String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    server.close();
    client.close();
    mongo.close();
  }
}
