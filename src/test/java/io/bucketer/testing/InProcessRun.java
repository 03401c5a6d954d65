package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.KafkaSettings;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterTopic;
import io.bucketer.topics.TypedTopic;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * One isolated run of the processor in the test's JVM ({@link BucketerApp#start}) against the
 * endpoints the test gives: its own application id, topics and MongoDB database, so tests never see
 * each other's data. {@link IsolatedRun} is the same for processors in child JVMs.
 */
public final class InProcessRun implements AutoCloseable {

  public static final Duration DEADLINE = Duration.ofSeconds(90);

  private final Endpoints endpoints;
  private final Map<String, String> settings;
  private final BucketerConfig config;
  private final StoredDocuments store;
  private KafkaProducer<byte[], byte[]> producer;
  private ReadingSimulator gateways;

  /**
   * Creates the input topic with {@code inputPartitions} partitions. {@code overrides} are bucketer
   * settings on top of the run's own (ids, topics, database, three series partitions, Kafka Streams
   * state under {@code stateDir}). An overridden MongoDB URI (through a proxy, say) is the
   * processor's only: {@link #store()} reads the database at {@code endpoints} directly.
   */
  public InProcessRun(
      final Endpoints endpoints,
      final Path stateDir,
      final int inputPartitions,
      final Map<String, String> overrides)
      throws InterruptedException, ExecutionException, TimeoutException {
    final Map<String, String> settings = RunSettings.of(RunSettings.newId(), endpoints);
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    settings.putAll(overrides);
    this.endpoints = endpoints;
    this.settings = Map.copyOf(settings);
    this.config = new BucketerConfig(settings);
    // The test's own client: the overrides are for the processor's clients.
    try (Admin admin = Admin.create(endpoints.testClientProperties())) {
      admin
          .createTopics(List.of(new NewTopic(config.inputTopic(), inputPartitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    this.store =
        new StoredDocuments(
            endpoints.mongoUri(), config.mongoDatabase(), config.collectionPrefix());
  }

  /** The settings the processor starts with: the run's application id, topics and database. */
  public BucketerConfig config() {
    return config;
  }

  /** The settings of {@link #config()} as they were given: for a processor in a child JVM. */
  public Map<String, String> settings() {
    return settings;
  }

  /** The run's MongoDB database, read back. */
  public StoredDocuments store() {
    return store;
  }

  /** Starts the processor with meters of its own, as {@link #start(MeterRegistry)}. */
  public BucketerApp start() {
    return start(new SimpleMeterRegistry());
  }

  /** Starts the processor and waits until its streams are running or rebalancing. */
  public BucketerApp start(final MeterRegistry meters) {
    final BucketerApp app = BucketerApp.start(config, meters);
    await().atMost(DEADLINE).until(() -> app.streamsState().isRunningOrRebalancing());
    return app;
  }

  /**
   * Starts the processor with the run's settings changed by {@code changes} (a fixed mapping, say):
   * the same application id, topics, database and state directory, as an operator restarts it after
   * changing its configuration; waits as {@link #start(MeterRegistry)} does.
   */
  public BucketerApp start(final Map<String, String> changes, final MeterRegistry meters) {
    final Map<String, String> changed = new HashMap<>(settings);
    changed.putAll(changes);
    final BucketerApp app = BucketerApp.start(new BucketerConfig(changed), meters);
    await().atMost(DEADLINE).until(() -> app.streamsState().isRunningOrRebalancing());
    return app;
  }

  /**
   * Gateways that send readings to the input topic as Confluent's Avro serializer frames them, on
   * one producer that the run closes.
   */
  public ReadingSimulator gateways() {
    if (gateways == null) {
      gateways = new ReadingSimulator(producer(), encoder(), config.inputTopic());
    }
    return gateways;
  }

  /**
   * Frames records of any writer schema as Confluent's serializer does, registering the schema
   * under the input topic's subject: what a gateway with a schema of its own sends.
   */
  public ReadingEncoder encoder() {
    return new ReadingEncoder(
        new SchemaRegistryClient(endpoints.schemaRegistryUrl()), config.inputTopic());
  }

  /** A client of the run's schema registry. */
  public SchemaRegistryClient registryClient() {
    return new SchemaRegistryClient(endpoints.schemaRegistryUrl());
  }

  /**
   * Sends record values as they are (framed Avro, JSON, anything), without keys, and waits until
   * the broker acknowledged every one.
   */
  public void sendValues(final List<byte[]> values) throws Exception {
    sendRecords(
        values.stream().map(value -> new ProducerRecord<byte[], byte[]>("", value)).toList());
  }

  /**
   * Sends records to the input topic with their keys, values and headers as they are (their topic
   * is replaced by the input topic's), and waits until the broker acknowledged every one.
   */
  public void sendRecords(final List<ProducerRecord<byte[], byte[]>> records) throws Exception {
    final List<Future<RecordMetadata>> acknowledged = new ArrayList<>(records.size());
    for (final ProducerRecord<byte[], byte[]> record : records) {
      acknowledged.add(
          producer()
              .send(
                  new ProducerRecord<>(
                      config.inputTopic(), null, record.key(), record.value(), record.headers())));
    }
    for (final Future<RecordMetadata> ack : acknowledged) {
      ack.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private KafkaProducer<byte[], byte[]> producer() {
    if (producer == null) {
      final TypedTopic<byte[], byte[]> input = BucketerTopics.input(config.inputTopic());
      producer =
          new KafkaProducer<>(
              endpoints.testClientProperties(), input.keySerializer(), input.valueSerializer());
    }
    return producer;
  }

  /** Sends every reading as fast as the producer takes them; fails unless all were sent. */
  public void send(final List<Reading> readings) {
    assertThat(gateways().send(readings)).isEqualTo(readings.size());
  }

  /**
   * Waits until the buckets of each granularity hold exactly {@code readings} readings: fewer are
   * still on their way, more would be readings counted twice.
   */
  public void awaitReadingsInBuckets(final long readings, final Granularity... granularities) {
    await("exactly " + readings + " readings in the buckets of " + List.of(granularities))
        .atMost(DEADLINE)
        .until(
            () -> Stream.of(granularities).allMatch(g -> store.readingsInBuckets(g) == readings));
  }

  /** The committed records of the dead-letter topic. */
  public List<ConsumerRecord<byte[], byte[]>> deadLetters() {
    return DeadLetterTopic.committedRecords(
        endpoints.testClientProperties(), config.deadLetterTopic());
  }

  /** Closes the clients; the test closes the processors it started. */
  @Override
  public void close() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
    }
    store.close();
  }
}
