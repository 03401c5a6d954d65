package io.bucketer.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Rounds of processing and rejoining without a commit make a loop; rebalances between commits, or
 * without anything processed, do not.
 */
class FencingLoopTest {

  private static final String LOGGER = "io.bucketer.recovery.FencingLoopTest.subject";

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T12:00:00Z"));
  private final FencingLoop loop =
      new FencingLoop(Duration.ofSeconds(30), clock, LoggerFactory.getLogger(LOGGER));
  private long commits;
  private long processed;

  @Test
  void shouldCallThreeRoundsOfProcessingWithoutACommitALoopAndEndItAtTheNextCommit() {
    final List<String> lines;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, LOGGER)) {
      running(100, 10); // processes and commits
      for (int round = 1; round <= FencingLoop.ROUNDS; round++) {
        assertThat(loop.reason()).as("before round %d", round).isEmpty();
        running(0, 500); // processes, every commit fenced
        rebalancing();
      }
      assertThat(loop.reason())
          .contains(
              "not committing: kafka streams processed records and rejoined its group 3 times in"
                  + " a row since 2026-12-03T12:00:03Z without a commit: each transaction was"
                  + " aborted before it could commit, having been open longer than the"
                  + " transaction timeout (30 s); it keeps trying and loses nothing, but give the"
                  + " instance more CPU or raise kafka.transaction.timeout.ms");
      // Another minute of the loop: one line more, not sixty.
      for (int second = 0; second < 60; second++) {
        rebalancing();
      }
      running(1, 10);
      lines = captured.text().lines().toList();
    }

    assertThat(loop.reason()).isEmpty();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("not committing:");
    assertThat(lines.get(1)).startsWith("not committing:");
    assertThat(lines.get(2)).isEqualTo("committing again, after 3 rounds without a commit");
  }

  @Test
  void shouldNotCountRebalancesOfAGroupThatCommitsBetweenThem() {
    for (int round = 0; round < 2 * FencingLoop.ROUNDS; round++) {
      running(5, 500);
      rebalancing();
    }

    assertThat(loop.reason()).isEmpty();
  }

  @Test
  void shouldNotCountRebalancesOfAnIdleInstance() {
    for (int round = 0; round < 2 * FencingLoop.ROUNDS; round++) {
      running(0, 0);
      rebalancing();
    }

    assertThat(loop.reason()).isEmpty();
  }

  private void running(final long newCommits, final long newlyProcessed) {
    commits += newCommits;
    processed += newlyProcessed;
    look(State.RUNNING);
  }

  private void rebalancing() {
    look(State.REBALANCING);
  }

  private void look(final State state) {
    clock.advance(Duration.ofSeconds(1));
    loop.observe(new StallRecovery.StreamsView(state, commits, processed));
  }
}
