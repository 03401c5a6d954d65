package io.bucketer.buckets;

/**
 * How a window's readings arrived, beyond the readings themselves: what a user needs to trust a
 * window's numbers. Counts add up: a coarser window's are the sum of its finer windows'.
 *
 * @param resends readings that arrived at a time the window already held a reading at, and so were
 *     collapsed onto it (a resend of the same value, or another value kept or replaced as {@code
 *     duplicate.timestamps} says): the window received {@code count + resends} readings
 * @param lateReadings readings that joined the window after it had closed (each gave it a new
 *     revision)
 */
public record WindowQuality(long resends, long lateReadings) {

  /** Nothing collapsed, nothing late: every window of a sensor on time, and unknown ones. */
  public static final WindowQuality NONE = new WindowQuality(0, 0);

  public WindowQuality {
    if (resends < 0 || lateReadings < 0) {
      throw new IllegalArgumentException(
          "negative counts: " + resends + " resends, " + lateReadings + " late readings");
    }
  }

  public WindowQuality withResend() {
    return new WindowQuality(resends + 1, lateReadings);
  }

  public WindowQuality withLateReading() {
    return new WindowQuality(resends, lateReadings + 1);
  }

  public WindowQuality plus(final WindowQuality other) {
    return other.isNone() || isNone()
        ? (isNone() ? other : this)
        : new WindowQuality(resends + other.resends, lateReadings + other.lateReadings);
  }

  public boolean isNone() {
    return resends == 0 && lateReadings == 0;
  }
}
