package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.sink.BucketReader;
import io.bucketer.testing.BucketStoreAssertions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline end to end, against whatever Kafka, registry and MongoDB a subclass provides:
 * readings produced to the input topic must come out as exactly the bucket documents that an
 * independent computation of the same readings gives.
 */
@Tag("integration")
abstract class PipelineContract {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  @TempDir Path stateDir;

  abstract String bootstrapServers();

  abstract String schemaRegistryUrl();

  abstract String mongoUri();

  @Test
  void shouldWriteEveryBucketOfAGeneratedStreamAsTheIndependentComputationSays() throws Exception {
    final Run run = new Run(Map.of(BucketerConfig.IDLE_TIMEOUT, "2s"));
    final List<Reading> readings =
        generate(
            new ReadingGenerator.Options(
                12, HISTORY, Duration.ofSeconds(3), Duration.ofMillis(500), 0.05, 24, 4000, 11));

    try (BucketerApp app = run.start();
        BucketReader store = run.reader()) {
      run.produce(readings);
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

  /**
   * Windows must close on event time alone, promptly, even when the readings that close them come
   * in one fast burst and when event time leaps hours ahead: the DSL's once-a-second emit throttle,
   * record caches and store retention each lost or delayed such buckets. The idle timeout is an
   * hour here, so only event time can close anything.
   */
  @Test
  void shouldCloseWindowsFromABurstAndALeapOfEventTimeWithoutWaitingForTheWallClock()
      throws Exception {
    final Run run = new Run(Map.of(BucketerConfig.IDLE_TIMEOUT, "1h"));
    final List<Reading> readings = new ArrayList<>();
    for (int second = 0; second < 600; second += 5) {
      readings.add(reading("burst", HISTORY.plusSeconds(second), second));
    }
    // Leap three hours ahead: closes every minute and the 09:00 hour at once.
    final Reading leap = reading("burst", HISTORY.plus(Duration.ofHours(3)), -1);

    try (BucketerApp app = run.start();
        BucketReader store = run.reader()) {
      run.produce(readings);
      await().atMost(DEADLINE).until(() -> store.documents(MINUTE) == 9);
      run.produce(List.of(leap));
      await().atMost(DEADLINE).until(() -> store.readingsInBuckets(HOUR) == readings.size());
      assertThat(store.documents(MINUTE)).isEqualTo(10);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
    }
  }

  /**
   * Readings that arrive after their windows closed, within the lateness horizon, are merged: the
   * minute and the hour that hold them are written again, whole, with a higher revision, and
   * MongoDB ends up equal to the computation over every reading.
   */
  @Test
  void shouldMergeLateReadingsIntoClosedWindowsAndWriteThemAgain() throws Exception {
    final Run run = new Run(Map.of(BucketerConfig.IDLE_TIMEOUT, "2s"));
    final List<Reading> onTime =
        generate(
            new ReadingGenerator.Options(
                4, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 1200, 5));
    final List<Reading> late = new ArrayList<>();
    for (int sensor = 0; sensor < 4; sensor++) {
      final String id = String.format("sensor-%04d", sensor);
      final String metric = sensor % 3 == 2 ? "humidity" : "temperature";
      late.add(reading(id, metric, HISTORY.plusSeconds(185).plusMillis(500), 100 + sensor));
      late.add(reading(id, metric, HISTORY.plusSeconds(420).plusMillis(250), 200 + sensor));
    }
    final List<Reading> all = new ArrayList<>(onTime);
    all.addAll(late);

    try (BucketerApp app = run.start();
        BucketReader store = run.reader()) {
      run.produce(onTime);
      // Every window closes: on event time, then the last ones on the idle timeout.
      await().atMost(DEADLINE).until(() -> store.readingsInBuckets(HOUR) == onTime.size());
      run.produce(late);
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == all.size()
                      && store.readingsInBuckets(HOUR) == all.size());
      BucketStoreAssertions.assertStoreEqualsComputation(store, all, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, all, HOUR);
      assertThat(store.all(HOUR))
          .extracting(d -> d.getInt32("revision").getValue())
          .containsOnly(2);
      assertThat(store.all(MINUTE))
          .filteredOn(d -> d.getInt32("revision").getValue() == 1)
          .hasSize(8);
    }
  }

  /** 100 readings a second: each minute is six capped documents, each hour many more. */
  @Test
  void shouldSplitTheWindowsOfAFastSensorIntoCappedDocuments() throws Exception {
    final Run run = new Run(Map.of(BucketerConfig.IDLE_TIMEOUT, "2s"));
    final List<Reading> readings =
        generate(
            new ReadingGenerator.Options(
                1, HISTORY, Duration.ofMillis(10), Duration.ZERO, 0, 0, 15_000, 9));

    try (BucketerApp app = run.start();
        BucketReader store = run.reader()) {
      run.produce(readings);
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == readings.size()
                      && store.readingsInBuckets(HOUR) == readings.size());
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
      assertThat(store.all(MINUTE)).hasSize(15);
      assertThat(store.all(HOUR)).hasSize(15);
      assertThat(store.all(HOUR))
          .allSatisfy(d -> assertThat(d.getArray("measurements")).hasSizeLessThanOrEqualTo(1000));
    }
  }

  private static List<Reading> generate(final ReadingGenerator.Options options) {
    final List<Reading> readings = new ArrayList<>();
    new ReadingGenerator(options).forEachRemaining(readings::add);
    return readings;
  }

  private static Reading reading(final String sensor, final Instant time, final double value) {
    return reading(sensor, null, time, value);
  }

  private static Reading reading(
      final String sensor, final String metric, final Instant time, final double value) {
    return Reading.newBuilder()
        .setSensorId(sensor)
        .setMetric(metric)
        .setTimestamp(time)
        .setValue(value)
        .build();
  }

  /** One isolated run: its own application id, topics and database. */
  private final class Run {
    private final String id = "t" + UUID.randomUUID().toString().substring(0, 8);
    private final String inputTopic = id + ".readings";
    private final BucketerConfig config;

    Run(final Map<String, String> overrides) throws Exception {
      final Map<String, Object> settings = new HashMap<>();
      settings.put(BucketerConfig.BOOTSTRAP_SERVERS, bootstrapServers());
      settings.put(BucketerConfig.SCHEMA_REGISTRY_URL, schemaRegistryUrl());
      settings.put(BucketerConfig.MONGODB_URI, mongoUri());
      settings.put(BucketerConfig.MONGODB_DATABASE, id);
      settings.put(BucketerConfig.APPLICATION_ID, id);
      settings.put(BucketerConfig.INPUT_TOPIC, inputTopic);
      settings.put(BucketerConfig.BUCKETS_TOPIC, id + ".buckets");
      settings.put(BucketerConfig.DEAD_LETTER_TOPIC, id + ".dlq");
      settings.put(BucketerConfig.SERIES_PARTITIONS, "3");
      settings.put(BucketerConfig.TOPIC_REPLICATION_FACTOR, "1");
      settings.put(BucketerConfig.KAFKA_PREFIX + "state.dir", stateDir.toString());
      settings.putAll(overrides);
      config = new BucketerConfig(settings);
      try (Admin admin = Admin.create(config.kafkaProperties())) {
        admin.createTopics(List.of(new NewTopic(inputTopic, 2, (short) 1))).all().get();
      }
    }

    BucketerApp start() {
      final BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry());
      await().atMost(DEADLINE).until(() -> app.streamsState().isRunningOrRebalancing());
      return app;
    }

    BucketReader reader() {
      return new BucketReader(mongoUri(), config.mongoDatabase(), config.collectionPrefix());
    }

    void produce(final List<Reading> readings) {
      final Map<String, Object> properties = new HashMap<>();
      properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
        final ReadingSimulator simulator =
            new ReadingSimulator(
                producer,
                new ReadingEncoder(new SchemaRegistryClient(schemaRegistryUrl()), inputTopic),
                inputTopic);
        assertThat(simulator.send(readings)).isEqualTo(readings.size());
      }
    }
  }
}
