package io.bucketer.app;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.function.CheckedSupplier;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start's Kafka steps (its topics, the input's partitions), run again with backoff while the
 * cluster does not answer: a rollout may start bucketer before its brokers. Meanwhile the process
 * is alive and not ready, its reason the one line of the last failure, logged when the wait begins,
 * at most once a minute while it lasts, and once when it ends. Any other failure ends the wait at
 * once, for the caller to report.
 *
 * <p>{@code run} serves {@code /health} and {@code /ready} while the start waits here, asking
 * {@link #waitingReason()}.
 */
public final class ClusterWait {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterWait.class);
  private static final Duration LOG_EVERY = Duration.ofMinutes(1);

  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Supplier<Instant> clock;
  private volatile String waiting;
  private Instant lastLogged;
  private int failedAttempts;

  /** Waits from 1 s between attempts, doubling up to 30 s. */
  public ClusterWait() {
    this(Duration.ofSeconds(1), Duration.ofSeconds(30), Instant::now);
  }

  /** With the time from {@code clock}: a test's. */
  ClusterWait(
      final Duration initialBackoff, final Duration maxBackoff, final Supplier<Instant> clock) {
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.clock = clock;
  }

  /** Why the start waits, while it waits for the cluster. */
  public Optional<String> waitingReason() {
    return Optional.ofNullable(waiting);
  }

  /**
   * {@code steps}' result, once they ran without {@link KafkaUnreachableException}.
   *
   * @param cluster the bootstrap servers, for the line that says the wait is over
   */
  <T> T until(final String cluster, final CheckedSupplier<T> steps) throws InterruptedException {
    final RetryPolicy<T> whileUnreachable =
        RetryPolicy.<T>builder()
            .handle(KafkaUnreachableException.class)
            .withBackoff(initialBackoff, maxBackoff)
            .withMaxRetries(-1)
            .onFailedAttempt(attempt -> failed(attempt.getLastException().getMessage()))
            .build();
    try {
      final T result = Failsafe.with(whileUnreachable).get(steps);
      if (failedAttempts > 0) {
        LOG.info("kafka at {} answers now, after {} failed attempt(s)", cluster, failedAttempts);
      }
      return result;
    } catch (FailsafeException e) {
      if (e.getCause() instanceof InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw interrupted;
      }
      throw e;
    } finally {
      waiting = null;
    }
  }

  private void failed(final String line) {
    failedAttempts++;
    waiting = line;
    final Instant now = clock.get();
    if (lastLogged == null || Duration.between(lastLogged, now).compareTo(LOG_EVERY) >= 0) {
      LOG.warn("{}: retrying until it answers", line);
      lastLogged = now;
    }
  }
}
