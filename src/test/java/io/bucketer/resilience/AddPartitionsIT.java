package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
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
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 * The input topic grows from three partitions to six under a live fleet, while the processor runs
 * with its production defaults and the gateways keep sending, keyed by sensor id: the sensors whose
 * key now hashes to a new partition move there at once (the gateways' producers refresh their
 * metadata every second here, the worst case for bucketer). The open windows do not move with them:
 * the topology repartitions by series into an internal topic with its own, fixed partition count
 * ({@code series.partitions}), so a moved sensor's readings still meet its windows in the same
 * task.
 *
 * <p>What growth must not cost is time. The processor sees the new partitions only when its group's
 * leader refreshes the input's metadata (every 10 s, {@code BucketerApp}'s default; Kafka's is 5
 * minutes), and rebalances then. Until it does, the moved sensors' readings wait; if they wait
 * longer than {@code idle.timeout} (30 s) their windows are closed by the wall clock, and the
 * readings come as late revisions of windows already written. So the new partitions must be read
 * within 30 s of the growth, every minute window must be written once (revision 0), and hold
 * exactly its readings.
 */
@Tag("integration")
// A hung run fails here, after six minutes, instead of holding CI until its limit.
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class AddPartitionsIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final int PARTITIONS_BEFORE = 3;
  private static final int PARTITIONS_AFTER = 6;
  // 200 sensors, each every second, sent in real time (event time is the wall clock) for 100 s;
  // the input grows after 40 s.
  private static final int SENSORS = 200;
  private static final int SECONDS = 100;
  private static final int GROWN_AFTER_SECONDS = 40;
  private static final int READINGS = SENSORS * SECONDS;
  private static final Duration PICKED_UP_WITHIN = Duration.ofSeconds(30);

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
  void shouldReadNewInputPartitionsBeforeAnyWindowOfAMovedSensorCloses() throws Exception {
    final Timeline timeline = new Timeline();
    try (IsolatedRun run =
        new IsolatedRun(infrastructure, dir, PARTITIONS_BEFORE, Map.of())) { // as deployed
      final StoredDocuments store = run.store();
      final ProcessorProcess processor = run.startProcessor("a");
      run.awaitConsumingBy(processor);
      timeline.mark("consuming");
      final List<Reading> readings =
          GeneratedReadings.of(
              new ReadingGenerator.Options(
                  SENSORS,
                  Instant.now().truncatedTo(ChronoUnit.SECONDS),
                  Duration.ofSeconds(1),
                  Duration.ZERO,
                  0,
                  0,
                  READINGS,
                  23));
      final Duration pickedUpAfter;
      try (PacedProducer gateways =
          PacedProducer.start(
              infrastructure,
              run.inputTopic(),
              readings,
              SENSORS,
              Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, "1000"))) {
        await("readings of " + GROWN_AFTER_SECONDS + " s sent")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> gateways.acknowledged() >= (long) SENSORS * GROWN_AFTER_SECONDS);
        run.admin()
            .createPartitions(Map.of(run.inputTopic(), NewPartitions.increaseTo(PARTITIONS_AFTER)))
            .all()
            .get(30, TimeUnit.SECONDS);
        final long grown = System.nanoTime();
        timeline.mark("partitions added after " + gateways.acknowledged() + " readings");
        await("a commit of input from every new partition")
            .atMost(IsolatedRun.DEADLINE)
            .pollInterval(Duration.ofMillis(250))
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> newPartitionsCommitted(run));
        pickedUpAfter = Duration.ofNanos(System.nanoTime() - grown);
        timeline.mark("new partitions read");
        assertThat(gateways.awaitDone(Duration.ofSeconds(SECONDS))).isEqualTo(READINGS);
        timeline.mark("all sent");
      }
      run.awaitInputConsumed(); // then the idle timeout closes the last minute's windows
      run.awaitReadingsInBuckets(READINGS, MINUTE);
      timeline.mark("all in buckets");

      final Map<Integer, Long> readingsByPartition = recordsByPartition(run);
      System.out.printf(
          "AddPartitionsIT: %d readings, by input partition %s, %d 1m documents, the new"
              + " partitions read %.1f s after they were added; %s%n",
          READINGS,
          readingsByPartition,
          store.documents(MINUTE),
          pickedUpAfter.toMillis() / 1000.0,
          timeline);
      assertThat(pickedUpAfter)
          .as("from the growth to a commit of input from every new partition")
          .isLessThanOrEqualTo(PICKED_UP_WITHIN);
      assertThat(
              DeadLetterTopic.countByReason(
                  infrastructure.bootstrapServers(), run.deadLetterTopic()))
          .as("readings sent to the dead-letter topic")
          .isEmpty();
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      assertThat(store.all(MINUTE))
          .as("minute windows written again: revised because readings waited for the growth")
          .allSatisfy(
              document ->
                  assertThat(document.getNumber(BucketDocumentNames.REVISION).longValue())
                      .isZero());
    }
  }

  /** True once the group has committed input from every partition the growth added. */
  private static boolean newPartitionsCommitted(final IsolatedRun run) throws Exception {
    final Map<TopicPartition, OffsetAndMetadata> committed =
        run.admin()
            .listConsumerGroupOffsets(run.applicationId())
            .partitionsToOffsetAndMetadata()
            .get(10, TimeUnit.SECONDS);
    for (int partition = PARTITIONS_BEFORE; partition < PARTITIONS_AFTER; partition++) {
      final OffsetAndMetadata offset =
          committed.get(new TopicPartition(run.inputTopic(), partition));
      if (offset == null || offset.offset() == 0) {
        return false;
      }
    }
    return true;
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
