package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.recovery.StallRecovery;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stall watch and the fencing-loop check read Kafka Streams' stream-thread metrics by name
 * ({@code commit-total}, {@code process-total}): this fails if a Kafka Streams upgrade renames them
 * or stops counting, where the unit tests, which are given the counts, would not.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StreamsViewIT {

  private static final Granularity MINUTE = Granularity.parse("1m");

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
  void shouldCountTheStreamThreadsCommitsAndProcessedRecordsFromKafkaStreamsOwnMetrics()
      throws Exception {
    try (InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 1, Map.of());
        BucketerApp app = run.start()) {
      final StallRecovery.StreamsView before = app.streamsView();
      final List<Reading> readings = new ArrayList<>();
      final Instant start = Instant.parse("2025-06-01T09:00:00Z");
      // Two minutes of one sensor, then a reading that closes them.
      for (int second = 0; second <= 120; second += 10) {
        readings.add(
            Reading.newBuilder()
                .setSensorId("s1")
                .setMetric("temperature")
                .setTimestamp(start.plusSeconds(second))
                .setValue(second)
                .build());
      }
      run.send(readings);
      await("buckets in MongoDB")
          .atMost(InProcessRun.DEADLINE)
          .until(() -> run.store().documents(MINUTE) >= 2);
      await("kafka streams running")
          .atMost(InProcessRun.DEADLINE)
          .until(() -> app.streamsState() == KafkaStreams.State.RUNNING);

      final StallRecovery.StreamsView after = app.streamsView();
      assertThat(after.state()).isEqualTo(KafkaStreams.State.RUNNING);
      assertThat(after.commits()).as("commits").isGreaterThan(before.commits());
      assertThat(after.processed() - before.processed())
          .as("records processed: each reading in both stages, at least")
          .isGreaterThanOrEqualTo(readings.size());
    }
  }
}
