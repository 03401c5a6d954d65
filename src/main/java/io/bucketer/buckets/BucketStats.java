package io.bucketer.buckets;

import java.util.List;

/**
 * The computed fields of a bucket (MongoDB's computed pattern): running count, sum, min and max,
 * the first and last event times, and the UTC offset of the latest reading when gateways send one.
 * Immutable; {@link #add} and {@link #merge} return new values so a store can hold them safely.
 */
public record BucketStats(
    long count,
    double sum,
    double min,
    double max,
    long firstTimestamp,
    long lastTimestamp,
    Integer utcOffsetMinutes) {

  /** The stats of a bucket holding exactly one reading. */
  public static BucketStats of(final Measurement measurement, final Integer utcOffsetMinutes) {
    return new BucketStats(
        1,
        measurement.value(),
        measurement.value(),
        measurement.value(),
        measurement.timestamp(),
        measurement.timestamp(),
        utcOffsetMinutes);
  }

  /** The stats of a non-empty run of measurements, all carrying the same UTC offset. */
  public static BucketStats ofAll(
      final List<Measurement> measurements, final Integer utcOffsetMinutes) {
    BucketStats stats = of(measurements.get(0), utcOffsetMinutes);
    for (int i = 1; i < measurements.size(); i++) {
      stats = stats.add(measurements.get(i), utcOffsetMinutes);
    }
    return stats;
  }

  /** These stats with one more reading. */
  public BucketStats add(final Measurement measurement, final Integer utcOffsetMinutes) {
    return merge(of(measurement, utcOffsetMinutes));
  }

  /**
   * The stats of the union of both buckets' readings. The UTC offset follows the latest reading
   * that carried one, so a daylight-saving change inside a bucket keeps the newer offset.
   */
  public BucketStats merge(final BucketStats other) {
    final boolean otherIsLater = other.lastTimestamp >= lastTimestamp;
    final Integer offset;
    if (otherIsLater) {
      offset = other.utcOffsetMinutes != null ? other.utcOffsetMinutes : utcOffsetMinutes;
    } else {
      offset = utcOffsetMinutes != null ? utcOffsetMinutes : other.utcOffsetMinutes;
    }
    return new BucketStats(
        count + other.count,
        sum + other.sum,
        Math.min(min, other.min),
        Math.max(max, other.max),
        Math.min(firstTimestamp, other.firstTimestamp),
        Math.max(lastTimestamp, other.lastTimestamp),
        offset);
  }

  public double average() {
    return sum / count;
  }
}
