package io.bucketer.buckets;

import java.util.Arrays;
import java.util.List;

/**
 * A window's own typical interval between readings: the median of the times between its consecutive
 * readings, the reading it carries in included. The median, not the mean, so that one long silence
 * does not stretch it: a sensor that sends every 5 s and is then down for 59 minutes has a typical
 * interval of 5 s and should have sent 720 readings in that hour, where a mean would say 12 were
 * enough. A window with a single reading and nothing carried in has none.
 */
public final class LearnedInterval {

  private LearnedInterval() {}

  /**
   * The median interval, in ms, of {@code sortedReadings} after {@code carryIn} (null for none);
   * null when there are fewer than two readings. Readings at one time (none are, in a window) would
   * count as an interval of 0. Of an even number of intervals, the lower middle one, so that it is
   * one of them.
   */
  public static Long of(final Measurement carryIn, final List<Measurement> sortedReadings) {
    final int first = carryIn == null ? 1 : 0;
    final int intervals = sortedReadings.size() - first;
    if (intervals < 1) {
      return null;
    }
    final long[] between = new long[intervals];
    long previous = carryIn == null ? sortedReadings.get(0).timestamp() : carryIn.timestamp();
    for (int i = first; i < sortedReadings.size(); i++) {
      final long time = sortedReadings.get(i).timestamp();
      between[i - first] = time - previous;
      previous = time;
    }
    Arrays.sort(between);
    final long median = between[(intervals - 1) / 2];
    return median > 0 ? median : null;
  }
}
