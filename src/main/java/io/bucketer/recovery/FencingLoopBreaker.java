package io.bucketer.recovery;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;

/**
 * Breaks the loop that {@link FencingLoop} finds, which Kafka Streams alone would keep trying for
 * ever: it restarts the Kafka Streams client with twice the transaction timeout, so that a
 * transaction that needs longer than the timeout (a stream thread starved of CPU, a catch-up after
 * a restore) can commit. Each loop found after a restart doubles it again, up to {@link
 * #RAISE_LIMIT} times the configured timeout and never past the brokers' default largest ({@link
 * #BROKER_DEFAULT_MAX}). The raised timeout holds until the process restarts.
 *
 * <p>Why raise the timeout rather than do less in each transaction: what a transaction holds is
 * Kafka Streams' to choose (the records of a poll, the changelog writes, the commit), and a longer
 * timeout is the one remedy its public API allows. The price is the one a longer timeout always
 * has: should the instance die mid-transaction, the readers of what it wrote wait that long.
 */
public final class FencingLoopBreaker {

  /** Restarts the Kafka Streams client. */
  public interface Restart {
    /**
     * Closes the client and starts a new one whose transactions time out after {@code
     * transactionTimeout}; false when that could not be done (the old client did not stop).
     */
    boolean restartWith(Duration transactionTimeout);
  }

  /** The raised timeout is at most this many times the configured one. */
  static final int RAISE_LIMIT = 4;

  /**
   * Brokers refuse a transaction timeout above their {@code transaction.max.timeout.ms}, 15 minutes
   * unless set otherwise.
   */
  static final Duration BROKER_DEFAULT_MAX = Duration.ofMinutes(15);

  private final FencingLoop loop;
  private final StallRecovery recovery;
  private final Restart restart;
  private final Executor executor;
  private final Logger log;
  private final Runnable counted;
  private final Duration ceiling;
  private Duration timeout;
  private boolean gaveUp;
  private volatile String restarting;

  /**
   * @param configured the transaction timeout the client was started with
   * @param executor runs the restart, off the watch's thread, whose ticks must go on meanwhile
   * @param counted told of every restart done (a counter)
   */
  public FencingLoopBreaker(
      final Duration configured,
      final FencingLoop loop,
      final StallRecovery recovery,
      final Restart restart,
      final Executor executor,
      final Logger log,
      final Runnable counted) {
    this.timeout = configured;
    this.ceiling = max(configured, min(configured.multipliedBy(RAISE_LIMIT), BROKER_DEFAULT_MAX));
    this.loop = loop;
    this.recovery = recovery;
    this.restart = restart;
    this.executor = executor;
    this.log = log;
    this.counted = counted;
  }

  /**
   * Every tick of the watch, after the loop's look: when a loop holds, nothing restarts already and
   * the timeout may still be raised, starts a restart with twice the timeout.
   */
  public synchronized void consider() {
    if (restarting != null || gaveUp || loop.reason().isEmpty()) {
      return;
    }
    if (timeout.compareTo(ceiling) >= 0) {
      gaveUp = true;
      log.warn(
          "the fencing loop holds with a transaction timeout of {}, the most this instance raises"
              + " it to by itself: give the instance more CPU, or raise kafka.transaction.timeout.ms"
              + " (up to the brokers' transaction.max.timeout.ms)",
          StallRecovery.seconds(timeout));
      return;
    }
    final Duration raised = min(timeout.multipliedBy(2), ceiling);
    restarting =
        "breaking a fencing loop: restarting kafka streams with a transaction timeout of "
            + StallRecovery.seconds(raised)
            + " (was "
            + StallRecovery.seconds(timeout)
            + ")";
    log.warn(
        "{}; what the aborted transactions held is processed again, nothing is lost", restarting);
    executor.execute(() -> restart(raised));
  }

  /** Why the instance is not ready while it restarts Kafka Streams, or empty when it does not. */
  public Optional<String> reason() {
    return Optional.ofNullable(restarting);
  }

  /** The transaction timeout the running client was given. */
  public synchronized Duration transactionTimeout() {
    return timeout;
  }

  private void restart(final Duration raised) {
    boolean done;
    try {
      done = restart.restartWith(raised);
    } catch (RuntimeException e) {
      log.error("restarting kafka streams failed", e);
      done = false;
    }
    synchronized (this) {
      if (done) {
        log.info(
            "restarted kafka streams with a transaction timeout of {}, which holds until the"
                + " process restarts: set kafka.transaction.timeout.ms to keep it",
            StallRecovery.seconds(raised));
        timeout = raised;
        loop.restarted(raised);
        recovery.transactionTimeoutRaised(raised);
        counted.run();
      } else {
        // The restart said why; trying again would fail the same way.
        gaveUp = true;
      }
      restarting = null;
    }
  }

  private static Duration min(final Duration a, final Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Duration max(final Duration a, final Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
