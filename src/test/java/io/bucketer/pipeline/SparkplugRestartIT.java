package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.InputSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.ingest.sparkplug.SparkplugDataType;
import io.bucketer.ingest.sparkplug.SparkplugMessages;
import io.bucketer.ingest.sparkplug.SparkplugMessages.EdgeNode;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topology.TopologyNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparkplug B through the processor and a real broker: an edge node's births on input partitions 0
 * and 1, its and its device's data on partition 2, as a bridge that keys by topic spreads them; the
 * data meets the births. The processor then stops, its local state is wiped, and it starts again:
 * data sent without any new birth is still read, through the births restored from the birth store's
 * changelog.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SparkplugRestartIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final int BIRTH_PARTITION = 0;
  private static final int DEVICE_BIRTH_PARTITION = 1;
  private static final int DATA_PARTITION = 2;

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  private final EdgeNode press =
      new EdgeNode(
          "plant",
          "press",
          List.of(
              new SparkplugMessages.Metric("temperature", SparkplugDataType.DOUBLE),
              new SparkplugMessages.Metric("rpm", SparkplugDataType.UINT32)));

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldReadDataThroughBirthsFromOtherPartitionsAndAfterARestartOnAnEmptyDisk()
      throws Exception {
    final Map<String, String> settings = new HashMap<>();
    settings.put(InputSettings.FORMAT, "sparkplug-b");
    // Windows close only by their series' own time here: the counts below are exact.
    settings.put(WindowSettings.IDLE_TIMEOUT, "1h");
    try (InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 3, settings);
        KafkaProducer<byte[], byte[]> bridge =
            new KafkaProducer<>(
                infrastructure.endpoints().testClientProperties(),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
      final String input = run.config().inputTopic();
      try (BucketerApp app = run.start()) {
        send(bridge, input, BIRTH_PARTITION, press.nbirth(TEN, 20.0, 0));
        send(bridge, input, DEVICE_BIRTH_PARTITION, press.dbirth("motor", TEN, 40.0, 900));
        // Kafka orders records within a partition only: the data goes once the births are kept.
        awaitBirthsInChangelog(run.config().applicationId(), "plant/press", "plant/press/motor");
        for (final long at : List.of(TEN + 5_000, TEN + 30_000, TEN + 75_000)) { // close 10:00
          send(bridge, input, DATA_PARTITION, press.ndata(at, 21.5, 1500));
          send(bridge, input, DATA_PARTITION, press.ddata("motor", at, 41.0, 950));
        }
        awaitReadingsInMinuteBuckets(run, 8); // 2 sensors, 2 metrics, 2 readings each
      }

      wipe(stateDir);
      try (BucketerApp app = run.start()) {
        for (final long at : List.of(TEN + 90_000, TEN + 135_000)) { // close 10:01
          send(bridge, input, DATA_PARTITION, press.ndata(at, 22.5, 1510));
          send(bridge, input, DATA_PARTITION, press.ddata("motor", at, 42.0, 960));
        }
        awaitReadingsInMinuteBuckets(run, 16);
      }
      assertThat(run.deadLetters()).as("dead letters").isEmpty();
      assertThat(run.store().documents(MINUTE)).isEqualTo(8);
    }
  }

  /** As {@link InProcessRun#awaitReadingsInBuckets}, failing at once on a dead letter. */
  private static void awaitReadingsInMinuteBuckets(final InProcessRun run, final long readings) {
    await("exactly " + readings + " readings in minute buckets")
        .atMost(InProcessRun.DEADLINE)
        .failFast(
            "a dead letter",
            () ->
                assertThat(run.deadLetters())
                    .extracting(dead -> dead.headers().lastHeader(DeadLetterHeaders.MESSAGE))
                    .extracting(header -> new String(header.value(), StandardCharsets.UTF_8))
                    .isEmpty())
        .until(() -> run.store().readingsInBuckets(MINUTE), count -> count == readings);
  }

  private static void send(
      final KafkaProducer<byte[], byte[]> bridge,
      final String topic,
      final int partition,
      final Message message)
      throws Exception {
    bridge
        .send(
            new ProducerRecord<>(
                topic,
                partition,
                message.topic().getBytes(StandardCharsets.UTF_8),
                message.payload()))
        .get(30, TimeUnit.SECONDS);
  }

  /** Waits until the birth store's changelog holds a committed birth of every key. */
  private static void awaitBirthsInChangelog(final String applicationId, final String... keys) {
    final Map<String, Object> properties =
        new HashMap<>(infrastructure.endpoints().testClientProperties());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, "changelog-reader-" + UUID.randomUUID());
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    final String changelog =
        applicationId + "-" + TopologyNames.SPARKPLUG_BIRTH_STORE + "-changelog";
    final Set<String> seen = new HashSet<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(properties, new StringDeserializer(), (topic, bytes) -> bytes)) {
      await("births " + List.of(keys) + " in " + changelog)
          .atMost(InProcessRun.DEADLINE)
          .until(
              () -> {
                if (consumer.subscription().isEmpty()) {
                  consumer.subscribe(List.of(changelog));
                }
                for (final ConsumerRecord<String, byte[]> record :
                    consumer.poll(Duration.ofMillis(200))) {
                  // A record without a value forgets its key, as a restore would.
                  if (record.value() == null) {
                    seen.remove(record.key());
                  } else {
                    seen.add(record.key());
                  }
                }
                return seen.containsAll(List.of(keys));
              });
    }
  }

  /** What a new disk holds: nothing of the state directory. */
  private static void wipe(final Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (final Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        if (!path.equals(dir)) {
          Files.delete(path);
        }
      }
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }
  }
}
