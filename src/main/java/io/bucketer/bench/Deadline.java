package io.bucketer.bench;

import java.time.Duration;

/** A point in time by which a phase of the benchmark must be done; fails loudly after it. */
final class Deadline {

  private final Duration timeout;
  private final long deadlineNanos;

  Deadline(final Duration timeout) {
    this.timeout = timeout;
    this.deadlineNanos = System.nanoTime() + timeout.toNanos();
  }

  void check(final String waitingFor) {
    if (System.nanoTime() > deadlineNanos) {
      throw new IllegalStateException("timed out after " + timeout + " waiting for " + waitingFor);
    }
  }
}
