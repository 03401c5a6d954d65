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

  /** The start of the latest finest window the series sent a reading to. */
  private long latestWindowStart = Long.MIN_VALUE;

  /** The readings that window took so far. */
  private int latestWindowReadings;

  SeriesClock(final long clock, final long now, final long nextCheck) {
    this.clock = clock;
    this.lastReadingWallClock = now;
    this.nextIdleCheck = nextCheck;
  }

  /** Counts a reading the series sent to its finest window starting at {@code windowStart}. */
  void countReading(final long windowStart) {
    if (windowStart > latestWindowStart) {
      latestWindowStart = windowStart;
      latestWindowReadings = 1;
    } else if (windowStart == latestWindowStart) {
      latestWindowReadings++;
    }
  }

  /**
   * The readings a new finest window starting at {@code windowStart} can expect: as many as the
   * series' latest window took, when the new one follows it; 0 when nothing is known.
   */
  int expectedReadings(final long windowStart) {
    return windowStart > latestWindowStart ? latestWindowReadings : 0;
  }
}
