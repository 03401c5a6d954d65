package io.bucketer.buckets;

import java.util.Objects;

/**
 * The values of a window's {@link BucketStats}, read one by one: what {@link RunningStats} starts
 * from and is compared with, so that a holder of the values in fields of its own (the window cache)
 * hands them over without a {@code BucketStats} and two {@link Measurement}s made for the purpose.
 */
public interface StatsFields {

  long count();

  double sum();

  double min();

  double max();

  long firstTimestamp();

  double firstValue();

  long lastTimestamp();

  double lastValue();

  double shift();

  double shiftedMean();

  double m2();

  /** The UTC offset of the latest reading that carried one, or null. */
  Integer utcOffsetMinutes();

  /**
   * Whether {@code a} and {@code b} hold the same values, as {@link BucketStats}' equals compares
   * them: each double as {@link Double#compare} does (so -0.0 is not 0.0, and NaN equals NaN).
   */
  static boolean same(final StatsFields a, final StatsFields b) {
    return a.count() == b.count()
        && sameDouble(a.sum(), b.sum())
        && sameDouble(a.min(), b.min())
        && sameDouble(a.max(), b.max())
        && a.firstTimestamp() == b.firstTimestamp()
        && sameDouble(a.firstValue(), b.firstValue())
        && a.lastTimestamp() == b.lastTimestamp()
        && sameDouble(a.lastValue(), b.lastValue())
        && sameDouble(a.shift(), b.shift())
        && sameDouble(a.shiftedMean(), b.shiftedMean())
        && sameDouble(a.m2(), b.m2())
        && Objects.equals(a.utcOffsetMinutes(), b.utcOffsetMinutes());
  }

  private static boolean sameDouble(final double a, final double b) {
    return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
  }
}
