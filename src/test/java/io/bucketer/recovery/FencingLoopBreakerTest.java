package io.bucketer.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fencing loop restarts Kafka Streams with twice the transaction timeout, once per loop, up to
 * four times the configured one; a restart that cannot be done is not tried again.
 */
class FencingLoopBreakerTest {

  private static final Logger LOG = LoggerFactory.getLogger(FencingLoopBreakerTest.class);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-04T12:00:00Z"));
  private final FencingLoop loop = new FencingLoop(Duration.ofSeconds(30), clock, LOG, () -> false);
  private final StallRecovery recovery =
      new StallRecovery(
          new StallRecovery.Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(45)),
          new RestoreProgress(),
          clock,
          LOG,
          outlived -> {});
  private final List<Duration> restartedWith = new ArrayList<>();
  private final List<Runnable> queued = new ArrayList<>();
  private final AtomicInteger counted = new AtomicInteger();
  private boolean restartsSucceed = true;
  private long commits;
  private long processed;

  private final FencingLoopBreaker breaker =
      new FencingLoopBreaker(
          Duration.ofSeconds(30),
          loop,
          recovery,
          timeout -> {
            restartedWith.add(timeout);
            return restartsSucceed;
          },
          queued::add,
          LOG,
          counted::incrementAndGet);

  @BeforeEach
  void processAndCommit() {
    look(State.RUNNING, 1, 10);
  }

  @Test
  void shouldRestartWithTwiceTheTimeoutOncePerLoopUpToFourTimesTheConfiguredOne() {
    loopUntilFound();
    assertThat(breaker.reason())
        .contains(
            "breaking a fencing loop: restarting kafka streams with a transaction timeout of 60 s"
                + " (was 30 s)");
    // Looks while the restart runs start no second one.
    loopFor(10);
    assertThat(queued).hasSize(1);
    runQueued();
    assertThat(restartedWith).containsExactly(Duration.ofSeconds(60));
    assertThat(breaker.reason()).isEmpty();
    assertThat(breaker.transactionTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(recovery.timeouts().transaction()).isEqualTo(Duration.ofSeconds(60));
    assertThat(loop.reason()).as("the new client's loop is counted anew").isEmpty();

    loopUntilFound();
    runQueued();
    loopUntilFound();
    runQueued();

    // At four times the configured timeout, a loop is left to the operator.
    loopUntilFound();
    loopFor(10);

    assertThat(queued).isEmpty();
    assertThat(restartedWith).containsExactly(Duration.ofSeconds(60), Duration.ofSeconds(120));
    assertThat(counted).hasValue(2);
    assertThat(loop.reason()).hasValueSatisfying(line -> assertThat(line).contains("(120 s)"));
    assertThat(breaker.reason()).isEmpty();
  }

  @Test
  void shouldNotRestartAnInstanceThatCommitsBetweenRebalances() {
    for (int second = 0; second < 600; second++) {
      look(second % 20 < 10 ? State.RUNNING : State.REBALANCING, second % 3 == 0 ? 1 : 0, 500);
    }

    assertThat(queued).isEmpty();
    assertThat(breaker.reason()).isEmpty();
  }

  @Test
  void shouldNotTryAgainARestartThatCouldNotBeDone() {
    restartsSucceed = false;
    loopUntilFound();
    runQueued();
    loopFor(600);

    assertThat(queued).isEmpty();
    assertThat(restartedWith).containsExactly(Duration.ofSeconds(60));
    assertThat(counted).hasValue(0);
    assertThat(breaker.transactionTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void shouldRaiseNoFurtherThanTheBrokersDefaultLargestTimeout() {
    final FencingLoop slowLoop = new FencingLoop(Duration.ofMinutes(10), clock, LOG, () -> false);
    final FencingLoopBreaker slowBreaker =
        new FencingLoopBreaker(
            Duration.ofMinutes(10),
            slowLoop,
            recovery,
            timeout -> {
              restartedWith.add(timeout);
              return true;
            },
            Runnable::run,
            LOG,
            () -> {});
    lookAt(slowLoop, slowBreaker, State.RUNNING, 1, 10);
    // Three loops' worth: 30 minutes at 10, then 45 at 15, and more.
    for (int second = 0; second < 3 * 3600; second++) {
      lookAt(slowLoop, slowBreaker, State.REBALANCING, 0, 5);
    }

    assertThat(restartedWith).containsExactly(FencingLoopBreaker.BROKER_DEFAULT_MAX);
    assertThat(slowBreaker.reason()).isEmpty();
  }

  /** {@code seconds} of processing without a commit. */
  private void loopFor(final int seconds) {
    for (int second = 0; second < seconds; second++) {
      look(State.REBALANCING, 0, 5);
    }
  }

  /** Processes without a commit until the loop is found (at most an hour). */
  private void loopUntilFound() {
    for (int second = 0; second < 3600 && loop.reason().isEmpty(); second++) {
      look(State.REBALANCING, 0, 5);
    }
    assertThat(loop.reason()).as("a loop found").isPresent();
  }

  private void look(final State state, final long newCommits, final long newlyProcessed) {
    lookAt(loop, breaker, state, newCommits, newlyProcessed);
  }

  private void lookAt(
      final FencingLoop aLoop,
      final FencingLoopBreaker aBreaker,
      final State state,
      final long newCommits,
      final long newlyProcessed) {
    commits += newCommits;
    processed += newlyProcessed;
    clock.advance(Duration.ofSeconds(1));
    aLoop.observe(new StallRecovery.StreamsView(state, commits, processed));
    aBreaker.consider();
  }

  private void runQueued() {
    final List<Runnable> now = new ArrayList<>(queued);
    queued.clear();
    now.forEach(Runnable::run);
  }
}
