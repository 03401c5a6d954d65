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
 * Processing without a commit for three transaction timeouts makes a loop, whatever state Kafka
 * Streams reports; a thread that commits, idles or restores does not.
 */
class FencingLoopTest {

  private static final String LOGGER = "io.bucketer.recovery.FencingLoopTest.subject";

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T12:00:00Z"));
  private boolean restoring;
  private final FencingLoop loop =
      new FencingLoop(
          Duration.ofSeconds(30), clock, LoggerFactory.getLogger(LOGGER), () -> restoring);
  private long commits;
  private long processed;

  @Test
  void shouldCallNinetySecondsOfProcessingWithoutACommitALoopAndEndItAtTheNextCommit() {
    final List<String> lines;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, LOGGER)) {
      look(State.RUNNING, 1, 10); // processes and commits
      // Rebalancing all along, as a looping client may: processing, never committing.
      for (int second = 1; second <= 90; second++) {
        look(State.REBALANCING, 0, 5);
        assertThat(loop.reason()).as("after %d s", second).isEmpty();
      }
      look(State.REBALANCING, 0, 5);
      assertThat(loop.reason())
          .contains(
              "not committing: kafka streams has processed 455 records since"
                  + " 2026-12-03T12:00:02Z without a commit for 90 s (restores left out): each"
                  + " transaction is aborted before it can commit, having been open longer than"
                  + " the transaction timeout (30 s); it keeps trying and loses nothing, but give"
                  + " the instance more CPU or raise kafka.transaction.timeout.ms");
      // Another minute of the loop: one line more, not sixty.
      for (int second = 0; second < 60; second++) {
        look(State.REBALANCING, 0, 5);
      }
      look(State.RUNNING, 1, 10);
      lines = captured.text().lines().toList();
    }

    assertThat(loop.reason()).isEmpty();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("not committing:");
    assertThat(lines.get(1)).startsWith("not committing:");
    assertThat(lines.get(2))
        .isEqualTo("committing again, after 150 s of processing without a commit");
  }

  @Test
  void shouldNotCountAThreadThatCommitsWhileItProcesses() {
    for (int second = 0; second < 300; second++) {
      look(second % 20 < 10 ? State.RUNNING : State.REBALANCING, second % 5 == 0 ? 1 : 0, 500);
    }

    assertThat(loop.reason()).isEmpty();
  }

  @Test
  void shouldNotCountAnIdleInstance() {
    for (int second = 0; second < 300; second++) {
      look(second % 20 < 10 ? State.RUNNING : State.REBALANCING, 0, 0);
    }

    assertThat(loop.reason()).isEmpty();
  }

  @Test
  void shouldLeaveOutTheTimeSpentRestoring() {
    look(State.RUNNING, 1, 10);
    look(State.RUNNING, 0, 3); // thawed, processes a little before it finds itself fenced
    restoring = true;
    for (int second = 0; second < 300; second++) {
      look(State.REBALANCING, 0, 0);
    }
    restoring = false;
    for (int second = 0; second < 30; second++) {
      look(State.RUNNING, 0, 5);
    }
    assertThat(loop.reason()).as("30 s of processing, not 330").isEmpty();
    look(State.RUNNING, 1, 5);

    assertThat(loop.reason()).isEmpty();
  }

  @Test
  void shouldCountANewClientAnewAgainstItsTimeout() {
    look(State.RUNNING, 1, 10);
    for (int second = 0; second < 80; second++) {
      look(State.REBALANCING, 0, 5);
    }
    loop.restarted(Duration.ofSeconds(60));
    for (int second = 0; second < 150; second++) {
      look(State.REBALANCING, 0, 5);
    }
    assertThat(loop.reason()).as("150 s of the new client's 180").isEmpty();
    for (int second = 0; second < 32; second++) {
      look(State.REBALANCING, 0, 5);
    }

    assertThat(loop.reason()).hasValueSatisfying(line -> assertThat(line).contains("(60 s)"));
  }

  private void look(final State state, final long newCommits, final long newlyProcessed) {
    commits += newCommits;
    processed += newlyProcessed;
    clock.advance(Duration.ofSeconds(1));
    loop.observe(new StallRecovery.StreamsView(state, commits, processed));
  }
}
