package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * MongoDB's sink connector in its own JVM, on the class path the build copied to {@code
 * target/connect-lib}, consumes Confluent-framed readings through bucketer's converter and writes
 * one document per reading, with the reading's time as a date.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SinkConnectorProcessIT {

  private static final int READINGS = 2_000;
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Duration MONGO_TIMEOUT = Duration.ofSeconds(10);
  private static final String TOPIC = "bench.readings";

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void shouldWriteOneDocumentPerReadingOfTheInputTopic() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                8,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(1),
                Duration.ofMillis(200),
                0.05,
                8,
                READINGS,
                17));
    try (LocalInfrastructure infrastructure = LocalInfrastructure.start()) {
      createTopic(infrastructure, 2);
      produce(infrastructure, readings);
      final SinkConnectorSettings settings =
          SinkConnectorSettings.of(
              infrastructure.bootstrapServers(),
              TOPIC,
              infrastructure.schemaRegistryUrl(),
              infrastructure.mongoUri(),
              "bench",
              "readings");

      try (SinkConnectorProcess connector =
              new SinkConnectorProcess(ConnectorClasspath.locate(), settings, dir).start();
          MongoClient mongo = MongoClients.create(infrastructure.mongoUri())) {
        final MongoCollection<BsonDocument> documents =
            mongo.getDatabase("bench").getCollection("readings", BsonDocument.class);
        awaitDocuments(connector, documents);

        assertThat(count(documents)).isEqualTo(READINGS);
        final Reading first = readings.get(0);
        final BsonDocument written =
            Mono.from(
                    documents
                        .find(
                            Filters.and(
                                Filters.eq("sensor_id", first.getSensorId()),
                                Filters.eq("timestamp", first.getTimestamp())))
                        .first())
                .block(MONGO_TIMEOUT);
        assertThat(written).isNotNull();
        assertThat(written.get("timestamp").getBsonType()).isEqualTo(BsonType.DATE_TIME);
        assertThat(written.getDateTime("timestamp").getValue())
            .isEqualTo(first.getTimestamp().toEpochMilli());
        assertThat(written.getDouble("value").getValue()).isEqualTo(first.getValue());
        assertThat(written.getString("metric").getValue()).isEqualTo(first.getMetric());
        assertThat(written.get("_id").getBsonType()).isEqualTo(BsonType.OBJECT_ID);
      }
    }
  }

  /**
   * Waits for at least every reading, failing at once if the connector's JVM dies; a task that
   * fails leaves the JVM running, so a timeout shows the end of Connect's log.
   */
  private static void awaitDocuments(
      final SinkConnectorProcess connector, final MongoCollection<BsonDocument> documents) {
    try {
      await("a document per reading from " + connector)
          .atMost(DEADLINE)
          .pollInterval(Duration.ofMillis(250))
          .failFast("the connector's JVM exited", () -> !connector.isAlive())
          .until(() -> count(documents) >= READINGS);
    } catch (ConditionTimeoutException | TerminalFailureException e) {
      throw new AssertionError(e.getMessage() + "\n--- end of its log:\n" + logTail(connector), e);
    }
  }

  private static long count(final MongoCollection<BsonDocument> documents) {
    return Mono.from(documents.countDocuments()).block(MONGO_TIMEOUT);
  }

  private static void createTopic(final LocalInfrastructure infrastructure, final int partitions)
      throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(TOPIC, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  private static void produce(
      final LocalInfrastructure infrastructure, final List<Reading> readings) {
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(TOPIC);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers()),
            input.keySerializer(),
            input.valueSerializer())) {
      final ReadingEncoder encoder =
          new ReadingEncoder(new SchemaRegistryClient(infrastructure.schemaRegistryUrl()), TOPIC);
      assertThat(new ReadingSimulator(producer, encoder, TOPIC).send(readings))
          .isEqualTo(readings.size());
    }
  }

  private static String logTail(final SinkConnectorProcess connector) {
    try {
      final List<String> lines = Files.readAllLines(connector.logFile(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
