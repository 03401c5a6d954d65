package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.WindowSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.Meters;
import io.bucketer.testing.MongoThroughProxy;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.TypedTopic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The processor against a real broker and the MongoDB stand-in reached through a proxy that the
 * test cuts: while MongoDB is unreachable the sink retries without committing, and once it is back
 * every reading is in exactly one bucket; a document MongoDB rejects becomes a dead letter.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MongoOutageIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Duration OUTAGE = Duration.ofSeconds(5);

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;
  private final ExecutorService gateway = Executors.newSingleThreadExecutor();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private CuttableTcpProxy proxy;
  private MongoClient direct;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @BeforeEach
  void startProxy() {
    final URI target = URI.create(infrastructure.mongoUri());
    proxy = CuttableTcpProxy.start(target.getHost(), target.getPort());
    direct = MongoClients.create(infrastructure.mongoUri());
  }

  @AfterEach
  void stopProxy() {
    gateway.shutdownNow();
    direct.close();
    proxy.close();
  }

  @Test
  void shouldLoseNoReadingWhileMongoDbIsUnreachableForSeconds() throws Exception {
    // 20 sensors, one reading a second each: 20 minutes of event time, sent over about 15 s.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                20, HISTORY, Duration.ofSeconds(1), Duration.ofMillis(200), 0.05, 40, 24_000, 3));

    try (InProcessRun run = newRun();
        BucketerApp app = run.start(meters)) {
      final StoredDocuments store = run.store();
      final ReadingSimulator gateways = run.gateways();
      final CompletableFuture<Long> sending =
          CompletableFuture.supplyAsync(() -> gateways.run(readings.iterator(), 1600), gateway);
      await().atMost(DEADLINE).until(() -> store.documents(MINUTE) > 0);

      proxy.cut();
      final long cutAt = System.nanoTime();
      final long sentAtCut = gateways.sent();
      // Two failed attempts: a bulk the server got just before the cut has been applied by now.
      await().atMost(DEADLINE).until(() -> retries() >= 2);
      final Map<TopicPartition, OffsetAndMetadata> committedWhileCut = sinkOffsets(run);
      final long documentsWhileCut = store.documents(MINUTE);
      // The sink holds one poll (at most max.poll.records, 500) and waits; nothing moves.
      await()
          .during(OUTAGE)
          .atMost(OUTAGE.plusSeconds(5))
          .until(
              () ->
                  sinkOffsets(run).equals(committedWhileCut)
                      && store.documents(MINUTE) == documentsWhileCut
                      && pending() > 0
                      && pending() <= 500
                      && app.isHealthy());
      final double retriesWhileCut = retries();
      final long sentWhileCut = gateways.sent() - sentAtCut;
      proxy.restore();
      final long restoredAt = System.nanoTime();

      await().atMost(DEADLINE).until(() -> !sinkOffsets(run).equals(committedWhileCut));
      final long firstCommitMillis = (System.nanoTime() - restoredAt) / 1_000_000;
      assertThat(sending.get()).isEqualTo(readings.size());
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      final long completeMillis = (System.nanoTime() - restoredAt) / 1_000_000;

      assertThat(retriesWhileCut).as("retries, at least one during the outage").isGreaterThan(2);
      assertThat(sentWhileCut).as("readings produced while cut").isPositive();
      assertThat(proxy.connectionsRefused()).isPositive();
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE, HOUR);
      assertThat(run.deadLetters()).isEmpty();
      assertThat(app.isHealthy()).isTrue();
      System.out.printf(
          "MongoOutageIT: cut %d ms with %d of %d readings produced meanwhile, %.0f retries;"
              + " first commit %d ms and every reading stored %d ms after restore%n",
          (restoredAt - cutAt) / 1_000_000,
          sentWhileCut,
          readings.size(),
          retriesWhileCut,
          firstCommitMillis,
          completeMillis);
    }
  }

  @Test
  void shouldStartWhileMongoDbIsDownAndWriteEverythingOnceItIsUp() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                5, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 2_000, 4));
    proxy.cut();

    try (InProcessRun run = newRun();
        BucketerApp app = run.start(meters)) {
      final StoredDocuments store = run.store();
      run.send(readings);
      // The sink cannot even create its indexes yet; it retries and the app stays up.
      await().atMost(DEADLINE).until(() -> retries() >= 2 && app.isHealthy());
      assertThat(store.documents(MINUTE)).isZero();

      proxy.restore();

      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE, HOUR);
    }
  }

  @Test
  void shouldDeadLetterADocumentMongoDbRejectsAndGoOn() throws Exception {
    final InProcessRun run = newRun();
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                6, HISTORY, Duration.ofSeconds(1), Duration.ofMillis(200), 0, 0, 3_600, 5));
    final Reading victim = readings.get(1);
    final long victimStart = MINUTE.windowStart(victim.getTimestamp().toEpochMilli());
    final List<Reading> inVictimWindow =
        readings.stream()
            .filter(r -> r.getSensorId().equals(victim.getSensorId()))
            .filter(r -> MINUTE.windowStart(r.getTimestamp().toEpochMilli()) == victimStart)
            .toList();
    final BsonDocument squatter =
        new BsonDocument("_id", new BsonString("squatter"))
            .append("sensor_id", new BsonString(victim.getSensorId()))
            .append("start_date", new BsonDateTime(victimStart))
            .append("seq", new BsonInt32(0));
    // A unique index the sink never creates, and a document that occupies one window in it.
    final MongoCollection<BsonDocument> minutes = minuteCollection(run);
    Mono.from(
            minutes.createIndex(
                Indexes.ascending("sensor_id", "start_date", "seq"),
                new IndexOptions().unique(true).name("test_one_window_taken")))
        .block(DEADLINE);
    Mono.from(minutes.insertOne(squatter)).block(DEADLINE);

    try (run;
        BucketerApp app = run.start(meters)) {
      final StoredDocuments store = run.store();
      run.send(readings);
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == readings.size() - inVictimWindow.size()
                      && store.readingsInBuckets(HOUR) == readings.size());
      // A rejected bucket reaches the dead letters at least once: a sink whose offset commit fails
      // (a rebalance of its group) or that crashes before committing reads the bucket again and
      // sends it again (docs/how-it-works.md). Every copy is counted by the meter.
      await("the rejected window's dead letters, each counted")
          .atMost(DEADLINE)
          .untilAsserted(
              () -> {
                final int letters = run.deadLetters().size();
                assertThat(letters).as("dead letters").isPositive();
                assertThat(
                        Meters.count(
                            meters, BucketerMetrics.DEAD_LETTERS, "reason", "mongodb-rejected"))
                    .as("dead letters counted")
                    .isEqualTo((double) letters);
              });

      // Each is the bucket's record as the sink read it, the buckets topic's own, of the window the
      // squatter occupies; the newest revision holds every reading of that window.
      final TypedTopic<String, ClosedBucket> buckets =
          BucketerTopics.closedBuckets(run.config().bucketsTopic());
      ClosedBucket newest = null;
      for (final ConsumerRecord<byte[], byte[]> letter : run.deadLetters()) {
        final ClosedBucket rejected =
            buckets.valueDeserializer().deserialize(letter.topic(), letter.value());
        assertThat(buckets.keyDeserializer().deserialize(letter.topic(), letter.key()))
            .isEqualTo(BucketKey.of(rejected));
        assertThat(rejected.series().sensorId()).isEqualTo(victim.getSensorId());
        assertThat(rejected.windowStart()).isEqualTo(victimStart);
        assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("mongodb-rejected");
        assertThat(header(letter, DeadLetterHeaders.MESSAGE)).contains("11000");
        assertThat(header(letter, DeadLetterHeaders.SOURCE_TOPIC))
            .isEqualTo(run.config().bucketsTopic());
        if (newest == null || rejected.revision() >= newest.revision()) {
          newest = rejected;
        }
      }
      assertThat(newest.stats().count()).isEqualTo(inVictimWindow.size());
      assertThat(app.isHealthy()).isTrue();

      // Every other window, all written after the rejected one, is as the computation says.
      Mono.from(minutes.deleteOne(Filters.eq("_id", "squatter"))).block(DEADLINE);
      final List<Reading> others = new ArrayList<>(readings);
      others.removeAll(inVictimWindow);
      BucketStoreAssertions.assertStoreEqualsComputation(store, others, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
    }
  }

  /**
   * Its own application id, topics and database; MongoDB through the proxy, read back directly by
   * {@link InProcessRun#store()}.
   */
  private InProcessRun newRun() throws Exception {
    final Map<String, String> overrides = new HashMap<>(MongoThroughProxy.settings(proxy));
    overrides.put(WindowSettings.IDLE_TIMEOUT, "2s");
    return new InProcessRun(infrastructure.endpoints(), stateDir, 2, overrides);
  }

  /** The run's minute buckets, reached directly, not through the proxy. */
  private MongoCollection<BsonDocument> minuteCollection(final InProcessRun run) {
    return direct
        .getDatabase(run.config().mongoDatabase())
        .getCollection(run.config().collectionPrefix() + MINUTE.label(), BsonDocument.class);
  }

  private double retries() {
    return meters.get(BucketSink.RETRIES).counter().count();
  }

  private double pending() {
    return meters.get(BucketSink.PENDING).gauge().value();
  }

  /** The sink group's committed offsets of the buckets topic. */
  private static Map<TopicPartition, OffsetAndMetadata> sinkOffsets(final InProcessRun run)
      throws Exception {
    try (Admin admin = Admin.create(run.config().kafkaProperties())) {
      return admin
          .listConsumerGroupOffsets(run.config().applicationId() + "-sink")
          .partitionsToOffsetAndMetadata()
          .get();
    }
  }

  private static String header(final ConsumerRecord<byte[], byte[]> record, final String key) {
    return new String(record.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
  }
}
