package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unreachable schema registry is not bad input: readings whose writer schema the processor has
 * not fetched yet must wait for the registry, not go to the dead-letter topic. The registry fails
 * for longer than the processor's retry budget, so the stream thread gives up and is replaced,
 * resuming from its last commit; every reading must still end in MongoDB exactly once.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RegistryOutageIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Duration DEADLINE = Duration.ofSeconds(120);

  /**
   * With a 1 s budget (backoff 100 ms doubling) a lookup makes at most about six attempts, so this
   * many failures outlast at least two budgets.
   */
  private static final int FAILED_REQUESTS = 15;

  /** A newer producer: the reading plus a field the processor does not know, so a new id. */
  private static final Schema WITH_FIRMWARE =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"io.bucketer.avro\","
                  + "\"fields\":[{\"name\":\"sensor_id\",\"type\":\"string\"},"
                  + "{\"name\":\"timestamp\","
                  + "\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
                  + "{\"name\":\"value\",\"type\":\"double\"},"
                  + "{\"name\":\"metric\",\"type\":[\"null\",\"string\"],\"default\":null},"
                  + "{\"name\":\"utc_offset_minutes\",\"type\":[\"null\",\"int\"],"
                  + "\"default\":null},"
                  + "{\"name\":\"firmware\",\"type\":\"string\",\"default\":\"unknown\"}]}");

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldBucketEveryReadingThroughARegistryOutageAndDeadLetterNone() throws Exception {
    // Two hours apart, so that the first part's windows have closed before the second arrives.
    final List<Reading> before = generate(Instant.parse("2025-06-01T09:00:00Z"), 1);
    final List<Reading> during = generate(Instant.parse("2025-06-01T11:00:00Z"), 2);
    final List<Reading> all = new ArrayList<>(before);
    all.addAll(during);
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    try (InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 2, overrides());
        BucketerApp app = run.start(meters);
        KafkaProducer<byte[], byte[]> producer =
            producer(BucketerTopics.input(run.config().inputTopic()))) {
      final StoredDocuments store = run.store();
      final String topic = run.config().inputTopic();
      final ReadingEncoder encoder =
          new ReadingEncoder(new SchemaRegistryClient(infrastructure.schemaRegistryUrl()), topic);
      send(producer, topic, before, before.stream().map(encoder::encode).toList());
      awaitReadingsInBuckets(store, HOUR, before.size(), meters);

      // Each sensor's first readings use the known schema, so the thread has usually forwarded
      // some of them in a transaction it has not committed when it meets the new one: replacing
      // the thread must neither lose nor repeat those. The new schema is registered now, while the
      // registry answers.
      final List<byte[]> mixed = new ArrayList<>();
      for (int i = 0; i < during.size(); i++) {
        final Reading reading = during.get(i);
        mixed.add(i < during.size() / 2 ? encoder.encode(reading) : withFirmware(encoder, reading));
      }
      infrastructure.registry().failNextRequests(FAILED_REQUESTS, 503);
      send(producer, topic, during, mixed);

      awaitReadingsInBuckets(store, MINUTE, all.size(), meters);
      awaitReadingsInBuckets(store, HOUR, all.size(), meters);
      assertThat(count(meters, BucketerMetrics.STREAM_THREAD_RESTARTS))
          .as("stream threads replaced because the registry was unavailable")
          .isGreaterThanOrEqualTo(1);
      BucketStoreAssertions.assertStoreEqualsComputation(store, all, MINUTE, HOUR);
      assertThat(count(meters, BucketerMetrics.DEAD_LETTERS)).isZero();
      assertThat(run.deadLetters()).isEmpty();
    }
  }

  /** Fails with the count it last saw and the dead letters so far, which say what went wrong. */
  private static void awaitReadingsInBuckets(
      final StoredDocuments store,
      final Granularity granularity,
      final long expected,
      final SimpleMeterRegistry meters) {
    await()
        // A replaced stream thread ends by rethrowing its error (Kafka Streams does so after
        // starting the replacement): expected here, not a reason to fail the wait.
        .dontCatchUncaughtExceptions()
        .atMost(DEADLINE)
        .untilAsserted(
            () ->
                assertThat(store.readingsInBuckets(granularity))
                    .as(
                        "readings in %s buckets; dead letters %s",
                        granularity.label(),
                        meters.find(BucketerMetrics.DEAD_LETTERS).counters().stream()
                            .map(c -> c.getId().getTag("reason") + "=" + c.count())
                            .toList())
                    .isEqualTo(expected));
  }

  private static Map<String, String> overrides() {
    final Map<String, String> settings = new HashMap<>();
    settings.put(WindowSettings.IDLE_TIMEOUT, "2s");
    settings.put(InputSettings.SCHEMA_REGISTRY_RETRY_TIMEOUT, "1s");
    // A replaced thread stays a group member until its session expires (Kafka Streams replaces it
    // with REMAIN_IN_GROUP), and the rebalance that hands its tasks on waits for that: the
    // broker's minimum session instead of the default 45 s keeps the test short.
    settings.put(KafkaSettings.CLIENT_PREFIX + "session.timeout.ms", "6000");
    settings.put(KafkaSettings.CLIENT_PREFIX + "heartbeat.interval.ms", "2000");
    return settings;
  }

  /** Twenty minutes of six sensors, in order, seeded so every run sends the same readings. */
  private static List<Reading> generate(final Instant start, final long seed) {
    return GeneratedReadings.of(
        new ReadingGenerator.Options(
            6, start, Duration.ofSeconds(5), Duration.ofMillis(500), 0, 24, 1440, seed));
  }

  private static byte[] withFirmware(final ReadingEncoder encoder, final Reading reading) {
    final GenericRecord record = new GenericData.Record(WITH_FIRMWARE);
    record.put("sensor_id", reading.getSensorId());
    record.put("timestamp", reading.getTimestamp().toEpochMilli());
    record.put("value", reading.getValue());
    record.put("metric", reading.getMetric());
    record.put("utc_offset_minutes", reading.getUtcOffsetMinutes());
    record.put("firmware", "2.1.0");
    return encoder.encode(record, WITH_FIRMWARE);
  }

  private static KafkaProducer<byte[], byte[]> producer(final TypedTopic<byte[], byte[]> input) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers());
    return new KafkaProducer<>(properties, input.keySerializer(), input.valueSerializer());
  }

  /**
   * Keyed by sensor, as gateways do: each series stays in one input partition, in order. (Spread
   * over partitions, a series' readings could overtake each other by more than the grace.)
   */
  private static void send(
      final KafkaProducer<byte[], byte[]> producer,
      final String topic,
      final List<Reading> readings,
      final List<byte[]> values)
      throws Exception {
    final List<Future<RecordMetadata>> acks = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      final byte[] key = readings.get(i).getSensorId().getBytes(StandardCharsets.UTF_8);
      acks.add(producer.send(new ProducerRecord<>(topic, key, values.get(i))));
    }
    producer.flush();
    for (final Future<RecordMetadata> ack : acks) {
      ack.get(); // throws if the broker rejected it
    }
  }

  private static double count(final SimpleMeterRegistry meters, final String name) {
    return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
  }

  /** Every committed record of a topic, read from its beginning to its current end. */
}
