package io.bucketer.query;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.testing.IrregularReadings;
import io.bucketer.windows.LifecycleRuns;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.bson.BsonDocument;

/**
 * The stored-range tests' fixture: three hours of generated irregular readings per series, the
 * buckets the real emit path closes for them, and a MongoDB stand-in with database {@code iot} and
 * collections {@code buckets_<granularity>} for a test to store them in its own way (current
 * documents, or older ones, or ones without a part) and read them back through {@link
 * StoredBuckets}.
 */
final class StoredRangeFixture implements AutoCloseable {

  static final Granularity MINUTE = Granularity.parse("1m");
  static final Granularity HOUR = Granularity.parse("1h");
  static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final EmbeddedMongoServer server;
  private final MongoClient client;

  private StoredRangeFixture(final EmbeddedMongoServer server) {
    this.server = server;
    this.client = MongoClients.create(server.connectionString());
  }

  /** A MongoDB stand-in with no documents yet. */
  static StoredRangeFixture start() {
    return new StoredRangeFixture(EmbeddedMongoServer.start());
  }

  /**
   * Three hours of irregular readings from 10:00 for each series, in the order given, all drawn
   * from one generator of a fixed seed: the same series list gives the same readings every run.
   */
  static Map<SeriesKey, List<Measurement>> readings(final List<SeriesKey> series) {
    final SplittableRandom random = new SplittableRandom(31);
    final Map<SeriesKey, List<Measurement>> sent = new LinkedHashMap<>();
    for (final SeriesKey each : series) {
      sent.put(each, IrregularReadings.of(random, TEN, Duration.ofHours(3).toMillis()));
    }
    return sent;
  }

  /**
   * Every bucket the emit path closes for {@code sent}, minutes and hours; twenty measurements and
   * twenty-five summaries per document, so busy minutes and hours are written in parts.
   */
  static List<ClosedBucket> emitted(
      final Map<SeriesKey, List<Measurement>> sent, final TimeWeightings weightings) {
    return LifecycleRuns.emitted(
        GRANULARITIES, new BucketLayout(20, 25, Set.of()), weightings, sent, TEN);
  }

  MongoDatabase database() {
    return client.getDatabase("iot");
  }

  MongoCollection<BsonDocument> collection(final Granularity granularity) {
    return database().getCollection("buckets_" + granularity.label(), BsonDocument.class);
  }

  /** The stored windows of both granularities, as the query side reads them. */
  StoredBuckets stored() {
    return new StoredBuckets(database(), "buckets_", GRANULARITIES, TIMEOUT);
  }

  @Override
  public void close() {
    client.close();
    server.close();
  }
}
