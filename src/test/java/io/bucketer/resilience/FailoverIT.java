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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of the application, separate JVMs with separate state directories, share a
 * four-partition input; one is killed with SIGKILL in the middle of the stream. The survivor must
 * take over the dead one's input partitions and open buckets (restoring them from the changelogs)
 * and MongoDB must end up with every reading in exactly one bucket of each granularity.
 *
 * <p>How soon the survivor takes over is the group's session timeout: see {@link
 * ResilienceSettings#processor} for why it is 3 s here rather than Kafka's 45 s, and which setting
 * decides it under Kafka Streams 4.3's default classic group protocol.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FailoverIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final int PARTITIONS = 4;
  private static final int READINGS = 24_000;
  // 24,000 readings at 1,200 a second: about 20 s of sending; the kill comes a quarter into it.
  private static final double RATE = 1_200;

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
  void shouldKeepEveryReadingWhenOneOfTwoInstancesDiesAndTheOtherTakesOver() throws Exception {
    // 24 sensors every 5 s of event time: 5,000 s of history, about 2,000 minute buckets.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                24,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(5),
                Duration.ofMillis(500),
                0.05,
                24,
                READINGS,
                17));
    final Timeline timeline = new Timeline();
    try (IsolatedRun run =
        new IsolatedRun(
            infrastructure,
            dir,
            PARTITIONS,
            ResilienceSettings.processor(
                Map.of(KafkaSettings.SERIES_PARTITIONS, String.valueOf(PARTITIONS))))) {
      final StoredDocuments store = run.store();
      final ProcessorProcess doomed = run.startProcessor("a");
      final ProcessorProcess survivor = run.startProcessor("b");
      run.awaitConsumingBy(doomed, survivor);
      timeline.mark("both consuming");
      assertThat(run.group().partitionsByMember(run.inputTopic()))
          .as("both instances read part of the input")
          .hasSize(2)
          .allSatisfy(partitions -> assertThat(partitions).isNotEmpty());
      assertThat(run.group().partitionsByMember(run.readingsBySeriesTopic()))
          .as("both instances keep part of the open buckets")
          .hasSize(2)
          .allSatisfy(partitions -> assertThat(partitions).isNotEmpty());

      final long sentAtTheKill;
      try (PacedProducer gateways =
          PacedProducer.start(infrastructure, run.inputTopic(), readings, RATE, Map.of())) {
        await("a quarter of the stream sent and buckets being written")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> gateways.acknowledged() >= READINGS / 4 && store.documents(MINUTE) > 0);
        sentAtTheKill = gateways.acknowledged();
        doomed.kill();
        timeline.mark("killed a after " + sentAtTheKill + " readings sent");
        run.awaitConsumingBy(survivor);
        timeline.mark("b alone consuming");
        assertThat(run.group().partitionsByMember(run.readingsBySeriesTopic()))
            .as("the survivor holds every partition of open buckets, the dead one's included")
            .containsExactly(allPartitions(run.readingsBySeriesTopic()));
        assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(READINGS);
        timeline.mark("all sent");
      }
      run.awaitInputConsumed(); // then the idle timeout closes the last windows
      run.awaitReadingsInBuckets(READINGS, MINUTE, HOUR);
      timeline.mark("all in buckets");

      assertThat(sentAtTheKill).as("readings sent before the kill").isBetween(1L, READINGS - 1L);
      assertThat(
              DeadLetterTopic.countByReason(
                  infrastructure.bootstrapServers(), run.deadLetterTopic()))
          .as("readings sent to the dead-letter topic")
          .isEmpty();
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
      assertThat(survivor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      System.out.printf(
          "FailoverIT: %d readings, %d 1m and %d 1h documents; %s%n",
          READINGS, store.documents(MINUTE), store.documents(HOUR), timeline);
    }
  }

  private static Set<TopicPartition> allPartitions(final String topic) {
    return IntStream.range(0, PARTITIONS)
        .mapToObj(partition -> new TopicPartition(topic, partition))
        .collect(Collectors.toSet());
  }
}
