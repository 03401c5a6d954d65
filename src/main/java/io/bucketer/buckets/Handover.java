package io.bucketer.buckets;

import java.time.Instant;
import java.util.List;

/**
 * Which of two deployments takes a reading while a rescale hands the input over from the one it
 * replaces (the old layout, {@code series.partitions} partitions) to the one that replaces it (the
 * new layout): {@code bucketer rescale}, docs/sizing.md. Both read the whole input, and each
 * reading is taken by exactly one of them:
 *
 * <ul>
 *   <li>a reading timestamped before the handover instant is the old layout's, which holds every
 *       window before it, closed ones included, so a late reading merges as it always has;
 *   <li>unless its record was written at or after {@code lateUntil}, the end of the old layout's
 *       lateness horizon: from then on the old layout has nothing left to merge, may be stopped,
 *       and such a reading is the new layout's, which calls it too late as the old one would have;
 *   <li>every other reading (at or after the handover instant) is the new layout's.
 * </ul>
 *
 * The handover instant is a multiple of every granularity's size, so that no window has readings on
 * both sides: a window, and every coarser one that holds it, is written by one layout only.
 * Everything is decided from the reading's and the record's timestamps, never the wall clock, so
 * that both layouts, reading the same record at different times, decide the same.
 *
 * <p>A record that cannot become readings (bytes that do not decode, a reading that fails a check)
 * goes to the dead-letter topic once: the old layout's when the record was written before the
 * handover instant, the new layout's otherwise ({@link #takesRejectionOf}).
 *
 * @param side which layout this deployment is
 * @param handoverMillis the handover instant
 * @param lateUntilMillis records written at or after it are the new layout's whatever their
 *     readings' times
 */
public record Handover(Side side, long handoverMillis, long lateUntilMillis) {

  /** Which of the two layouts a deployment is. */
  public enum Side {
    /** No rescale: this deployment takes every reading. */
    NONE,
    /** The layout a rescale replaces: it takes the readings before the handover. */
    BEFORE,
    /** The layout a rescale starts: it takes the readings from the handover on. */
    FROM
  }

  /** A deployment that takes everything. */
  public static final Handover NONE = new Handover(Side.NONE, Long.MIN_VALUE, Long.MIN_VALUE);

  public Handover {
    if (side != Side.NONE && lateUntilMillis < handoverMillis) {
      throw new IllegalArgumentException(
          "the end of the old layout's late readings ("
              + Instant.ofEpochMilli(lateUntilMillis)
              + ") is before the handover ("
              + Instant.ofEpochMilli(handoverMillis)
              + ")");
    }
  }

  /**
   * Whether this deployment takes a reading timestamped {@code readingMillis} of a record written
   * at {@code recordMillis}.
   */
  public boolean takesReading(final long readingMillis, final long recordMillis) {
    return switch (side) {
      case NONE -> true;
      case BEFORE -> isOldLayouts(readingMillis, recordMillis);
      case FROM -> !isOldLayouts(readingMillis, recordMillis);
    };
  }

  /** Whether this deployment dead-letters a record written at {@code recordMillis}. */
  public boolean takesRejectionOf(final long recordMillis) {
    return switch (side) {
      case NONE -> true;
      case BEFORE -> recordMillis < handoverMillis;
      case FROM -> recordMillis >= handoverMillis;
    };
  }

  /**
   * Whether a reading timestamped {@code readingMillis}, taken here, is before every window this
   * layout holds: one the new layout takes because its record was written once the old layout's
   * late readings had ended. It is too late, as it would have been without a rescale for a series
   * that kept sending: its window closed more than a grace and a lateness horizon before.
   */
  public boolean precedesThisLayout(final long readingMillis) {
    return side == Side.FROM && readingMillis < handoverMillis;
  }

  /** Why {@link #precedesThisLayout} sends a reading to the dead-letter topic. */
  public String tooLateHere() {
    return "before "
        + Instant.ofEpochMilli(handoverMillis)
        + ", when a rescale handed the input over to this layout; the layout it replaced took"
        + " late readings until "
        + Instant.ofEpochMilli(lateUntilMillis);
  }

  private boolean isOldLayouts(final long readingMillis, final long recordMillis) {
    return readingMillis < handoverMillis && recordMillis < lateUntilMillis;
  }

  /**
   * The granularities {@code instant} is not a multiple of: a handover there would split their
   * windows between the two layouts. Empty when it may be a handover instant.
   */
  public static List<Granularity> splitBy(
      final long instantMillis, final List<Granularity> granularities) {
    return granularities.stream()
        .filter(granularity -> granularity.windowStart(instantMillis) != instantMillis)
        .toList();
  }

  /**
   * The first instant at or after {@code earliestMillis} that splits no window of {@code
   * granularities}: a multiple of each one's size.
   */
  public static long firstInstantAtOrAfter(
      final long earliestMillis, final List<Granularity> granularities) {
    long step = 1;
    for (final Granularity granularity : granularities) {
      step = lcm(step, granularity.sizeMillis());
    }
    return Math.floorDiv(earliestMillis + step - 1, step) * step;
  }

  private static long lcm(final long a, final long b) {
    return Math.multiplyExact(a / gcd(a, b), b);
  }

  private static long gcd(final long a, final long b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
