package io.bucketer.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a registry call keeps retrying transient failures: exponential backoff from {@code
 * initialBackoff}, doubling up to {@code maxBackoff}, giving up once {@code total} has elapsed. The
 * worst-case blocking time is about {@code total} plus one request timeout, because an attempt
 * already in flight is not cut short.
 */
public record RetryBudget(Duration initialBackoff, Duration maxBackoff, Duration total) {

  public RetryBudget {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(total, "total");
    if (initialBackoff.isNegative() || initialBackoff.isZero()) {
      throw new IllegalArgumentException("initialBackoff must be > 0: " + initialBackoff);
    }
    if (maxBackoff.compareTo(initialBackoff) <= 0) {
      throw new IllegalArgumentException("maxBackoff must be > initialBackoff: " + maxBackoff);
    }
    if (total.compareTo(initialBackoff) <= 0) {
      throw new IllegalArgumentException("total must be > initialBackoff: " + total);
    }
  }

  /**
   * 100 ms doubling to 5 s, for 30 s: long enough to ride out a registry restart, well inside
   * Kafka's default max.poll.interval.ms (5 min) so a blocked stream thread is not evicted.
   */
  public static RetryBudget defaults() {
    return new RetryBudget(Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(30));
  }
}
