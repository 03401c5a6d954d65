package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.config.WindowSettings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.topics.DeadLetterTopic;
import io.bucketer.windows.WindowState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stop-all upgrade to the window log (docs/upgrades.md), through the processor and a real
 * broker: a build of the changelogged window stores stopped with open minute windows, which its
 * changelog holds; the new build starts on another machine (no local state), restores those windows
 * from that changelog, reads them, and closes them with the readings that come after. Every reading
 * ends in its minute and its hour, and each window it moved is deleted from the old changelog.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UpgradeToWindowLogIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HOUR_START = Instant.parse("2025-06-01T10:00:00Z");
  private static final List<String> SENSORS = List.of("sensor-a", "sensor-b", "sensor-c");
  private static final String METRIC = "temperature";

  /** Readings the old build had taken into each sensor's first minute, 10:00:00 – 10:00:09. */
  private static final int BEFORE_UPGRADE = 10;

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
  void shouldCloseTheWindowsTheChangeloggedStoresLeftWithTheReadingsThatFollow() throws Exception {
    // Windows close only by their series' own time here: the counts below are exact.
    try (InProcessRun run =
        new InProcessRun(
            infrastructure.endpoints(), stateDir, 3, Map.of(WindowSettings.IDLE_TIMEOUT, "1h"))) {
      final String legacyChangelog =
          run.config().applicationId()
              + "-"
              + TopologyNames.legacyWindowStore(MINUTE)
              + "-changelog";
      final int partitions = run.config().seriesPartitions();
      leaveOpenMinutes(legacyChangelog, partitions);

      // 10:00:10 to 11:00:50, one reading every 10 s: the hour 10:00 closes at 11:00:30
      final List<Reading> after = new ArrayList<>();
      for (long t = HOUR_START.toEpochMilli() + BEFORE_UPGRADE * 1_000L;
          t <= HOUR_START.toEpochMilli() + 3_650_000;
          t += 10_000) {
        for (final String sensor : SENSORS) {
          after.add(new Reading(sensor, Instant.ofEpochMilli(t), 21.0, METRIC, null));
        }
      }
      try (BucketerApp app = run.start()) {
        run.send(after);
        final long hourOfReadings =
            SENSORS.size() * BEFORE_UPGRADE
                + after.stream()
                    .filter(r -> r.getTimestamp().isBefore(HOUR_START.plusSeconds(3_600)))
                    .count();
        await("every reading of the hour 10:00 in its minutes and in its hour")
            .atMost(InProcessRun.DEADLINE)
            .untilAsserted(
                () ->
                    assertThat(
                            List.of(
                                run.store().readingsInBuckets(MINUTE),
                                run.store().readingsInBuckets(HOUR)))
                        .containsExactly(hourOfReadings, hourOfReadings));
      }

      assertThat(run.deadLetters()).as("dead letters").isEmpty();
      final List<ConsumerRecord<byte[], byte[]>> legacy =
          DeadLetterTopic.committedRecords(
              infrastructure.endpoints().testClientProperties(), legacyChangelog);
      assertThat(legacy.stream().filter(record -> record.value() == null).count())
          .as("a tombstone for each old window, as it moved into the window log")
          .isEqualTo(SENSORS.size());
      assertThat(legacy).as("the old windows and their tombstones").hasSize(2 * SENSORS.size());
    }
  }

  /**
   * Writes each sensor's open minute, as the changelogged window store wrote it, to its changelog.
   */
  private static void leaveOpenMinutes(final String changelog, final int partitions)
      throws Exception {
    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(changelog, partitions, (short) 1)
                      .configs(
                          Map.of(
                              TopicConfig.CLEANUP_POLICY_CONFIG,
                              TopicConfig.CLEANUP_POLICY_COMPACT))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            infrastructure.endpoints().testClientProperties(),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      for (final String sensor : SENSORS) {
        final SeriesKey series = new SeriesKey(sensor, METRIC);
        final long start = HOUR_START.toEpochMilli();
        WindowState minute = WindowState.openWith(new Measurement(start, 21.0), null);
        for (int second = 1; second < BEFORE_UPGRADE; second++) {
          minute = minute.withReading(new Measurement(start + second * 1_000L, 21.0), null);
        }
        producer
            .send(
                new ProducerRecord<>(
                    changelog,
                    SeriesPartitioner.partitionOf(series, partitions),
                    StoreKeys.of(series, start).get(),
                    WindowStateCodec.encode(minute)))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }
}
