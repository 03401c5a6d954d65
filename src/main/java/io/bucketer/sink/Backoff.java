package io.bucketer.sink;

import java.time.Duration;

/**
 * The delays between retries of one operation: the initial delay, then twice the previous one, at
 * most the maximum. One class, so that the sink's two retry loops (the indexes at start, the writes
 * of a batch) wait alike. Not thread-safe: each retry loop has its own.
 */
final class Backoff {

  private final Duration max;
  private Duration next;

  /**
   * @param initial the first delay, whatever the maximum
   * @param max the longest delay after the first
   */
  Backoff(final Duration initial, final Duration max) {
    this.next = initial;
    this.max = max;
  }

  /** The delay to wait before this retry; the one after is doubled, capped at the maximum. */
  Duration next() {
    final Duration current = next;
    final Duration doubled = current.multipliedBy(2);
    next = doubled.compareTo(max) < 0 ? doubled : max;
    return current;
  }
}
