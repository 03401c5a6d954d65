package io.bucketer.recovery;

import java.time.Duration;
import java.util.Optional;

/**
 * Notices that the whole process stood still, from the gap a stall leaves between two ticks of a
 * thread that ticks every {@code period}. A monotonic clock ({@link System#nanoTime()}, the
 * kernel's {@code CLOCK_MONOTONIC}) keeps running while the process is stopped, so the gap is the
 * stall's length plus one period. The same idea as jHiccup's and Elasticsearch's JVM pause
 * monitors, which cannot be reused here: they report to their own logs or HdrHistograms, not to a
 * caller.
 */
public final class StallDetector {

  /**
   * Gaps shorter than this are scheduling noise and ordinary collector pauses, too short for any of
   * Kafka's timeouts (the shortest a processor may set, the transaction timeout, must be longer
   * than a commit interval and is seconds in practice).
   */
  public static final Duration NOTICED = Duration.ofSeconds(2);

  private final long periodNanos;
  private long lastTickNanos;

  /**
   * @param period how often {@link #tick} is called
   * @param startNanos the monotonic clock's reading at the start
   */
  public StallDetector(final Duration period, final long startNanos) {
    this.periodNanos = period.toNanos();
    this.lastTickNanos = startNanos;
  }

  /**
   * One tick, at the monotonic clock's reading {@code nanos}: the length of the stall that ended
   * since the last tick, or empty when the gap was ordinary.
   */
  public Optional<Duration> tick(final long nanos) {
    final long late = nanos - lastTickNanos - periodNanos;
    lastTickNanos = nanos;
    return late >= NOTICED.toNanos() ? Optional.of(Duration.ofNanos(late)) : Optional.empty();
  }
}
