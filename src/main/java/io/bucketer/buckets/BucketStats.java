package io.bucketer.buckets;

import java.util.List;

/**
 * The computed fields of a window or bucket (MongoDB's computed pattern): count, sum, min and max;
 * the first and last reading (earliest and latest event time: a gauge's last value, a counter's
 * increase); the mean and the spread; and the UTC offset of the latest reading when gateways send
 * one. Immutable; {@link #add} and {@link #merge} return new values so a store can hold them
 * safely.
 *
 * <p><b>The spread merges exactly.</b> It is kept as {@code m2}, the sum of the squared deviations
 * from the mean, next to the mean itself, and two sets of readings are combined as Chan, Golub and
 * LeVeque do. Unlike a sum of squares, this stays accurate for readings far from zero with small
 * noise (a pressure of 1e9 Pa, say), and the stats of an hour rolled up from its minutes equal
 * those of its readings, to rounding.
 *
 * <p>Readings with equal times: the first is the one that arrived first, the last the one that
 * arrived last, as in a window's measurements, which keep arrival order among equal times.
 *
 * <p>Stats kept by a version before these fields existed have no first or last value and no spread:
 * those are NaN ({@link #hasSpread}), and so is any merge with them.
 */
public record BucketStats(
    long count,
    double sum,
    double min,
    double max,
    Measurement first,
    Measurement last,
    double shift,
    double shiftedMean,
    double m2,
    Integer utcOffsetMinutes)
    implements StatsFields {

  /** The stats of a bucket holding exactly one reading. */
  public static BucketStats of(final Measurement measurement, final Integer utcOffsetMinutes) {
    final double value = measurement.value();
    return new BucketStats(
        1, value, value, value, measurement, measurement, value, 0, 0, utcOffsetMinutes);
  }

  /** The stats of a non-empty run of measurements, in arrival order, with the same UTC offset. */
  public static BucketStats ofAll(
      final List<Measurement> measurements, final Integer utcOffsetMinutes) {
    BucketStats stats = of(measurements.get(0), utcOffsetMinutes);
    for (int i = 1; i < measurements.size(); i++) {
      stats = stats.add(measurements.get(i), utcOffsetMinutes);
    }
    return stats;
  }

  /**
   * Stats from a version that kept count, sum, min, max and the first and last times only: the
   * first and last values and the spread are unknown (NaN), the mean is the sum over the count.
   */
  public static BucketStats withoutSpread(
      final long count,
      final double sum,
      final double min,
      final double max,
      final long firstTimestamp,
      final long lastTimestamp,
      final Integer utcOffsetMinutes) {
    return new BucketStats(
        count,
        sum,
        min,
        max,
        new Measurement(firstTimestamp, Double.NaN),
        new Measurement(lastTimestamp, Double.NaN),
        0,
        sum / count,
        Double.NaN,
        utcOffsetMinutes);
  }

  /** These stats with one more reading, which arrived after all of theirs. */
  public BucketStats add(final Measurement measurement, final Integer utcOffsetMinutes) {
    return merge(of(measurement, utcOffsetMinutes));
  }

  /**
   * The stats of the union of both buckets' readings, {@code other}'s taken as having arrived
   * later. The UTC offset follows the latest reading that carried one, so a daylight-saving change
   * inside a bucket keeps the newer offset.
   */
  public BucketStats merge(final BucketStats other) {
    final boolean otherIsLater = other.lastTimestamp() >= lastTimestamp();
    final Integer offset;
    if (otherIsLater) {
      offset = other.utcOffsetMinutes != null ? other.utcOffsetMinutes : utcOffsetMinutes;
    } else {
      offset = utcOffsetMinutes != null ? utcOffsetMinutes : other.utcOffsetMinutes;
    }
    final long total = count + other.count;
    // Shifts close to each other subtract exactly, so the noise survives in the difference.
    final double delta = (other.shift - shift) + (other.shiftedMean - shiftedMean);
    final double weight = (double) other.count / total;
    return new BucketStats(
        total,
        sum + other.sum,
        Math.min(min, other.min),
        Math.max(max, other.max),
        other.first.timestamp() < first.timestamp() ? other.first : first,
        otherIsLater ? other.last : last,
        shift,
        shiftedMean + delta * weight,
        m2 + other.m2 + delta * delta * count * weight,
        offset);
  }

  @Override
  public long firstTimestamp() {
    return first.timestamp();
  }

  @Override
  public long lastTimestamp() {
    return last.timestamp();
  }

  @Override
  public double firstValue() {
    return first.value();
  }

  @Override
  public double lastValue() {
    return last.value();
  }

  /** The mean of the readings; kept apart from the sum, so it does not round with its size. */
  public double average() {
    return shift + shiftedMean;
  }

  /** The population standard deviation of the readings (MongoDB's {@code $stdDevPop}). */
  public double standardDeviation() {
    return Math.sqrt(m2 / count);
  }

  /** False for stats kept before the spread and the first and last values were. */
  public boolean hasSpread() {
    return !Double.isNaN(m2);
  }
}
