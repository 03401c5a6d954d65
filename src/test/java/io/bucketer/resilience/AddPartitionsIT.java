package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.KafkaSettings;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.PacedProducer;
import io.bucketer.testing.Timeline;
import io.bucketer.topics.DeadLetterTopic;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input topic grows from two partitions to four while the processor runs and the gateways keep
 * sending, keyed by sensor id: the sensors whose key now hashes to a new partition move there. The
 * open buckets do not move with them, because the topology repartitions by series into an internal
 * topic with its own, fixed partition count ({@code series.partitions}); a moved sensor's readings
 * still meet its open buckets in the same task, and nothing is lost or counted twice.
 *
 * <p>What can go wrong is order: a moved sensor's last readings in its old partition could be
 * processed after its first ones in the new partition. Those were sent earlier, so the old
 * partition would have to lag the new one by more than the grace in event time: event time runs at
 * twice the wall clock here, so by more than 5 s. The processor keeps up with this stream (200
 * readings a second), and it starts on the new partitions only once it has noticed them (metadata
 * refreshed every second here instead of every 5 minutes) and rebalanced, so any reordering stays
 * within the default 10 s grace; one beyond it would show as a dead letter, of which there must be
 * none. Readings later than grace are another issue's subject.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AddPartitionsIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final int PARTITIONS_BEFORE = 2;
  private static final int PARTITIONS_AFTER = 4;
  // 100 sensors, each every second of event time, sent at 200 a second: event time runs at twice
  // the wall clock, 4,000 readings in about 20 s.
  private static final int SENSORS = 100;
  private static final int READINGS = 4_000;
  private static final double RATE = 200;

  private static LocalInfrastructure infrastructure;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start(ResilienceSettings.broker());
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldKeepEveryReadingWhenTheInputTopicGainsPartitionsMidStream() throws Exception {
    // From 08:59:40: the minute windows of 08:59 and 09:00 each hold readings of moved sensors
    // from before and after the move.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                SENSORS,
                Instant.parse("2025-06-01T08:59:40Z"),
                Duration.ofSeconds(1),
                Duration.ofMillis(200),
                0.05,
                SENSORS,
                READINGS,
                23));
    final Timeline timeline = new Timeline();
    // The clients notice new partitions when they refresh metadata, every 5 minutes by default.
    final String metadataMaxAge = "1000";
    try (IsolatedRun run =
        new IsolatedRun(
            infrastructure,
            dir,
            PARTITIONS_BEFORE,
            ResilienceSettings.processor(
                Map.of(KafkaSettings.CLIENT_PREFIX + "metadata.max.age.ms", metadataMaxAge)))) {
      final StoredDocuments store = run.store();
      final ProcessorProcess processor = run.startProcessor("a");
      run.awaitConsumingBy(processor);
      timeline.mark("consuming");
      try (PacedProducer gateways =
          PacedProducer.start(
              infrastructure,
              run.inputTopic(),
              readings,
              RATE,
              Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, metadataMaxAge))) {
        await("half the readings sent")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> gateways.acknowledged() >= READINGS / 2);
        run.admin()
            .createPartitions(Map.of(run.inputTopic(), NewPartitions.increaseTo(PARTITIONS_AFTER)))
            .all()
            .get(30, TimeUnit.SECONDS);
        timeline.mark("partitions added after " + gateways.acknowledged() + " readings");
        run.awaitConsumingBy(processor);
        timeline.mark("consuming " + PARTITIONS_AFTER + " partitions");
        assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(READINGS);
        timeline.mark("all sent");
      }
      run.awaitInputConsumed(); // then the idle timeout closes the last windows
      run.awaitReadingsInBuckets(READINGS, MINUTE, HOUR);
      timeline.mark("all in buckets");

      final Map<Integer, Long> readingsByPartition = recordsByPartition(run);
      assertThat(readingsByPartition.get(2) + readingsByPartition.get(3))
          .as(
              "readings of the sensors that moved to the new partitions, by partition %s",
              readingsByPartition)
          .isPositive();
      assertThat(
              DeadLetterTopic.countByReason(
                  infrastructure.bootstrapServers(), run.deadLetterTopic()))
          .as("readings sent to the dead-letter topic")
          .isEmpty();
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
      System.out.printf(
          "AddPartitionsIT: %d readings, by input partition %s, %d 1m and %d 1h documents; %s%n",
          READINGS, readingsByPartition, store.documents(MINUTE), store.documents(HOUR), timeline);
    }
  }

  /**
   * Records in each input partition: its end offset, since the gateways do not use transactions.
   */
  private static Map<Integer, Long> recordsByPartition(final IsolatedRun run) throws Exception {
    final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS_AFTER; partition++) {
      request.put(new TopicPartition(run.inputTopic(), partition), OffsetSpec.latest());
    }
    final Map<Integer, Long> records = new HashMap<>();
    run.admin()
        .listOffsets(request)
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((partition, end) -> records.put(partition.partition(), end.offset()));
    return records;
  }
}
