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
import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.ClosedBucketSerde;
import io.bucketer.topology.DeadLetterHeaders;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The processor against a real broker and the MongoDB stand-in reached through a proxy that the
 * test cuts: while MongoDB is unreachable the sink retries without committing, and once it is back
 * every reading is in exactly one bucket; a document MongoDB rejects becomes a dead letter.
 */
@Tag("integration")
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
  void noReadingIsLostWhileMongoDbIsUnreachableForSeconds() throws Exception {
    final Run run = new Run();
    // 20 sensors, one reading a second each: 20 minutes of event time, sent over about 15 s.
    final List<Reading> readings =
        generate(
            new ReadingGenerator.Options(
                20, HISTORY, Duration.ofSeconds(1), Duration.ofMillis(200), 0.05, 40, 24_000, 3));

    try (BucketerApp app = run.start();
        BucketReader store = run.directReader()) {
      final ReadingSimulator gateways = run.simulator();
      final CompletableFuture<Long> sending =
          CompletableFuture.supplyAsync(() -> gateways.run(readings.iterator(), 1600), gateway);
      await().atMost(DEADLINE).until(() -> store.documents(MINUTE) > 0);

      proxy.cut();
      final long cutAt = System.nanoTime();
      final long sentAtCut = gateways.sent();
      // Two failed attempts: a bulk the server got just before the cut has been applied by now.
      await().atMost(DEADLINE).until(() -> run.retries() >= 2);
      final Map<TopicPartition, OffsetAndMetadata> committedWhileCut = run.sinkOffsets();
      final long documentsWhileCut = store.documents(MINUTE);
      // The sink holds one poll (at most max.poll.records, 500) and waits; nothing moves.
      await()
          .during(OUTAGE)
          .atMost(OUTAGE.plusSeconds(5))
          .until(
              () ->
                  run.sinkOffsets().equals(committedWhileCut)
                      && store.documents(MINUTE) == documentsWhileCut
                      && run.pending() > 0
                      && run.pending() <= 500
                      && app.isHealthy());
      final double retriesWhileCut = run.retries();
      final long sentWhileCut = gateways.sent() - sentAtCut;
      proxy.restore();
      final long restoredAt = System.nanoTime();

      await().atMost(DEADLINE).until(() -> !run.sinkOffsets().equals(committedWhileCut));
      final long firstCommitMillis = (System.nanoTime() - restoredAt) / 1_000_000;
      assertThat(sending.get()).isEqualTo(readings.size());
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == readings.size()
                      && store.readingsInBuckets(HOUR) == readings.size());
      final long completeMillis = (System.nanoTime() - restoredAt) / 1_000_000;

      assertThat(retriesWhileCut).as("retries, at least one during the outage").isGreaterThan(2);
      assertThat(sentWhileCut).as("readings produced while cut").isPositive();
      assertThat(proxy.connectionsRefused()).isPositive();
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
      assertThat(run.deadLetterCount()).isZero();
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
  void startsWhileMongoDbIsDownAndWritesEverythingOnceItIsUp() throws Exception {
    final Run run = new Run();
    final List<Reading> readings =
        generate(
            new ReadingGenerator.Options(
                5, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 2_000, 4));
    proxy.cut();

    try (BucketerApp app = run.start();
        BucketReader store = run.directReader()) {
      run.simulator().send(readings);
      // The sink cannot even create its indexes yet; it retries and the app stays up.
      await().atMost(DEADLINE).until(() -> run.retries() >= 2 && app.isHealthy());
      assertThat(store.documents(MINUTE)).isZero();

      proxy.restore();

      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == readings.size()
                      && store.readingsInBuckets(HOUR) == readings.size());
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
    }
  }

  @Test
  void aDocumentMongoDbRejectsBecomesADeadLetterAndTheSinkGoesOn() throws Exception {
    final Run run = new Run();
    final List<Reading> readings =
        generate(
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
    final MongoCollection<BsonDocument> minutes = run.minuteCollection();
    Mono.from(
            minutes.createIndex(
                Indexes.ascending("sensor_id", "start_date", "seq"),
                new IndexOptions().unique(true).name("test_one_window_taken")))
        .block(DEADLINE);
    Mono.from(minutes.insertOne(squatter)).block(DEADLINE);

    try (BucketerApp app = run.start();
        BucketReader store = run.directReader()) {
      assertThat(run.simulator().send(readings)).isEqualTo(readings.size());
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == readings.size() - inVictimWindow.size()
                      && store.readingsInBuckets(HOUR) == readings.size());
      await().atMost(DEADLINE).until(() -> run.deadLetterCount() == 1);

      final ConsumerRecord<byte[], byte[]> letter = run.deadLetters().get(0);
      final ClosedBucket rejected = ClosedBucketSerde.decode(letter.value());
      assertThat(new String(letter.key(), StandardCharsets.UTF_8))
          .isEqualTo(BucketKey.of(rejected));
      assertThat(rejected.series().sensorId()).isEqualTo(victim.getSensorId());
      assertThat(rejected.windowStart()).isEqualTo(victimStart);
      assertThat(rejected.stats().count()).isEqualTo(inVictimWindow.size());
      assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("mongodb-rejected");
      assertThat(header(letter, DeadLetterHeaders.MESSAGE)).contains("11000");
      assertThat(header(letter, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(run.bucketsTopic());
      assertThat(new BucketerMetrics(meters).deadLetters("mongodb-rejected")).isEqualTo(1.0);
      assertThat(app.isHealthy()).isTrue();

      // Every other window, all written after the rejected one, is as the computation says.
      Mono.from(minutes.deleteOne(Filters.eq("_id", "squatter"))).block(DEADLINE);
      final List<Reading> others = new ArrayList<>(readings);
      others.removeAll(inVictimWindow);
      BucketStoreAssertions.assertStoreEqualsComputation(store, others, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
    }
  }

  private static String header(final ConsumerRecord<byte[], byte[]> record, final String key) {
    return new String(record.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
  }

  private static List<Reading> generate(final ReadingGenerator.Options options) {
    final List<Reading> readings = new ArrayList<>();
    new ReadingGenerator(options).forEachRemaining(readings::add);
    return readings;
  }

  /** One isolated run: its own application id, topics and database; MongoDB via the proxy. */
  private final class Run {
    private final String id = "o" + UUID.randomUUID().toString().substring(0, 8);
    private final String inputTopic = id + ".readings";
    private final BucketerConfig config;

    Run() throws Exception {
      final Map<String, Object> settings = new HashMap<>();
      settings.put(BucketerConfig.BOOTSTRAP_SERVERS, infrastructure.bootstrapServers());
      settings.put(BucketerConfig.SCHEMA_REGISTRY_URL, infrastructure.schemaRegistryUrl());
      // Short client timeouts: an unreachable server fails a write in about a second.
      settings.put(
          BucketerConfig.MONGODB_URI,
          "mongodb://127.0.0.1:"
              + proxy.port()
              + "/?serverSelectionTimeoutMS=1000&connectTimeoutMS=1000&socketTimeoutMS=2000");
      settings.put(BucketerConfig.MONGODB_DATABASE, id);
      settings.put(BucketerConfig.APPLICATION_ID, id);
      settings.put(BucketerConfig.INPUT_TOPIC, inputTopic);
      settings.put(BucketerConfig.BUCKETS_TOPIC, id + ".buckets");
      settings.put(BucketerConfig.DEAD_LETTER_TOPIC, id + ".dlq");
      settings.put(BucketerConfig.SERIES_PARTITIONS, "3");
      settings.put(BucketerConfig.TOPIC_REPLICATION_FACTOR, "1");
      settings.put(BucketerConfig.IDLE_TIMEOUT, "2s");
      settings.put(BucketerConfig.SINK_WRITE_TIMEOUT, "3s");
      settings.put(BucketerConfig.SINK_RETRY_BACKOFF_MAX, "1s");
      settings.put(BucketerConfig.KAFKA_PREFIX + "state.dir", stateDir.toString());
      config = new BucketerConfig(settings);
      try (Admin admin = Admin.create(config.kafkaProperties())) {
        admin.createTopics(List.of(new NewTopic(inputTopic, 2, (short) 1))).all().get();
      }
    }

    BucketerApp start() {
      final BucketerApp app = BucketerApp.start(config, meters);
      await().atMost(DEADLINE).until(() -> app.streamsState().isRunningOrRebalancing());
      return app;
    }

    String bucketsTopic() {
      return config.bucketsTopic();
    }

    /** Reads MongoDB directly, not through the proxy. */
    BucketReader directReader() {
      return new BucketReader(
          infrastructure.mongoUri(), config.mongoDatabase(), config.collectionPrefix());
    }

    MongoCollection<BsonDocument> minuteCollection() {
      return direct
          .getDatabase(config.mongoDatabase())
          .getCollection(config.collectionPrefix() + MINUTE.label(), BsonDocument.class);
    }

    ReadingSimulator simulator() {
      final Map<String, Object> properties =
          Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers());
      final KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
      return new ReadingSimulator(
          producer,
          new ReadingEncoder(
              new SchemaRegistryClient(infrastructure.schemaRegistryUrl()), inputTopic),
          inputTopic);
    }

    double retries() {
      return meters.get(BucketSink.RETRIES).counter().count();
    }

    double pending() {
      return meters.get(BucketSink.PENDING).gauge().value();
    }

    /** The sink group's committed offsets of the buckets topic. */
    Map<TopicPartition, OffsetAndMetadata> sinkOffsets() throws Exception {
      try (Admin admin = Admin.create(config.kafkaProperties())) {
        return admin
            .listConsumerGroupOffsets(config.applicationId() + "-sink")
            .partitionsToOffsetAndMetadata()
            .get();
      }
    }

    long deadLetterCount() {
      return deadLetters().size();
    }

    /** The committed records of the dead-letter topic. */
    List<ConsumerRecord<byte[], byte[]>> deadLetters() {
      final Map<String, Object> properties =
          Map.of(
              ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
              infrastructure.bootstrapServers(),
              ConsumerConfig.ISOLATION_LEVEL_CONFIG,
              "read_committed");
      final List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        final List<TopicPartition> partitions =
            consumer.partitionsFor(config.deadLetterTopic()).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
          consumer.poll(Duration.ofMillis(200)).forEach(letters::add);
        }
      }
      return letters;
    }
  }
}
