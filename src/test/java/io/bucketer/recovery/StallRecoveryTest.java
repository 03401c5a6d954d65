package io.bucketer.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A stall that outlived a Kafka timeout makes the processor not ready, with a line that says where
 * its recovery stands, until it commits again; a shorter one only leaves a line in the log.
 */
class StallRecoveryTest {

  private static final String LOGGER = "io.bucketer.recovery.StallRecoveryTest.subject";
  private static final StallRecovery.Timeouts TIMEOUTS =
      new StallRecovery.Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(45));
  private static final Duration LOOK = Duration.ofSeconds(1);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T12:00:00Z"));
  private final RestoreProgress restores = new RestoreProgress();
  private final List<StallRecovery.Outlived> counted = new ArrayList<>();
  private StallRecovery recovery;

  @BeforeEach
  void createRecovery() {
    recovery =
        new StallRecovery(TIMEOUTS, restores, clock, LoggerFactory.getLogger(LOGGER), counted::add);
  }

  @Test
  void shouldCountAShortStallAndStayReady() {
    final String log;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, LOGGER)) {
      look(Duration.ofSeconds(12), State.RUNNING, 10);
      log = captured.text();
    }

    assertThat(recovery.reason()).isEmpty();
    assertThat(counted).containsExactly(StallRecovery.Outlived.NOTHING);
    assertThat(log)
        .contains("the process stood still for 12 s")
        .contains("shorter than the transaction timeout (30 s), so it has nothing to recover");
  }

  @Test
  void shouldSayWhereTheRecoveryStandsUntilTheFirstCommitAfterTheStall() {
    final List<String> lines;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, LOGGER)) {
      // The first look after the thaw: the fencing has not shown yet.
      look(Duration.ofSeconds(62), State.RUNNING, 100);
      assertThat(recovery.reason())
          .contains(
              "recovering from a 62 s stall that ended at 2026-12-03T12:00:01Z, longer than the"
                  + " transaction timeout (30 s) and the session timeout (45 s): waiting for the"
                  + " stream threads' first commit since");
      look(State.REBALANCING, 100);
      assertThat(recovery.reason()).hasValueSatisfying(line -> line.endsWith("is REBALANCING"));
      restores.onRestoreStart(new TopicPartition("changelog", 0), "window", 0, 1_000);
      restores.onBatchRestored(new TopicPartition("changelog", 0), "window", 250, 250);
      look(State.REBALANCING, 100);
      assertThat(recovery.reason())
          .hasValueSatisfying(
              line ->
                  assertThat(line)
                      .endsWith(
                          "kafka streams is REBALANCING, restoring 1 store from the changelogs:"
                              + " 25 % of 1,000 records"));
      restores.onRestoreEnd(new TopicPartition("changelog", 0), "window", 1_000);
      look(State.RUNNING, 100);
      assertThat(recovery.reason()).as("running, but no commit yet").isPresent();
      look(State.RUNNING, 101);
      lines = captured.text().lines().toList();
    }

    assertThat(recovery.reason()).isEmpty();
    assertThat(counted).containsExactly(StallRecovery.Outlived.SESSION_TIMEOUT);
    assertThat(lines)
        .as("what comes when it is noticed, where it stands, and its end; no line per look")
        .hasSize(3);
    assertThat(lines.get(0)).contains("its stream threads are fenced at their next commit");
    assertThat(lines.get(1)).startsWith("recovering from a 62 s stall");
    assertThat(lines.get(2)).isEqualTo("recovered from the 62 s stall in 4.0 s");
  }

  @Test
  void shouldNotTakeACommitSeenAtTheStallsOwnLookForTheFirstAfterIt() {
    look(Duration.ofSeconds(31), State.RUNNING, 100);
    assertThat(recovery.reason()).isPresent();
    assertThat(counted).containsExactly(StallRecovery.Outlived.TRANSACTION_TIMEOUT);

    look(State.RUNNING, 101);

    assertThat(recovery.reason()).isEmpty();
  }

  @Test
  void shouldEndARecoveryWithNothingToCommitAfterQuietLooks() {
    look(Duration.ofSeconds(40), State.REBALANCING, 7);
    for (int quiet = 1; quiet < StallRecovery.QUIET_LOOKS; quiet++) {
      look(State.RUNNING, 7);
      assertThat(recovery.reason()).as("quiet look %d", quiet).isPresent();
    }

    look(State.RUNNING, 7);

    assertThat(recovery.reason()).isEmpty();
  }

  @Test
  void shouldLogALastingRecoveryOnceAMinute() {
    final List<String> lines;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, LOGGER)) {
      look(Duration.ofSeconds(180), State.REBALANCING, 0);
      // 150 looks a second apart, still rebalancing: the line at the first, 60 s and 120 s.
      for (int second = 0; second < 150; second++) {
        look(State.REBALANCING, 0);
      }
      lines = captured.text().lines().toList();
    }

    assertThat(lines).hasSize(4);
    assertThat(lines.subList(1, 4))
        .allSatisfy(line -> assertThat(line).startsWith("recovering from a 180 s stall"));
  }

  private void look(final Duration stall, final State state, final long commits) {
    clock.advance(LOOK);
    recovery.observe(Optional.of(stall), new StallRecovery.StreamsView(state, commits, 0));
  }

  private void look(final State state, final long commits) {
    clock.advance(LOOK);
    recovery.observe(Optional.empty(), new StallRecovery.StreamsView(state, commits, 0));
  }
}
