package io.bucketer.windows;

/**
 * What the lifecycle holds in memory for one series that has state: its clock, when it last sent,
 * when {@link WindowLifecycle#closeIdleSeries} looks at it next, and where its last expiry stopped.
 * Mutable, so that a reading updates its series' entry in place; confined to the task's stream
 * thread, like the lifecycle.
 */
final class SeriesClock {

  /** The event time up to which the series' windows are judged. */
  long clock;

  /** When the series last sent a reading, on the wall clock. */
  long lastReadingWallClock;

  /** When, on the wall clock, its windows may next need closing or forgetting. */
  long nextIdleCheck;

  /** The {@code changeable} time of the series' last expiry; MIN_VALUE: none since the start. */
  long expiredAt = Long.MIN_VALUE;

  SeriesClock(final long clock, final long now, final long nextCheck) {
    this.clock = clock;
    this.lastReadingWallClock = now;
    this.nextIdleCheck = nextCheck;
  }
}
