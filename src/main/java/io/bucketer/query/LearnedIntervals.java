package io.bucketer.query;

import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The learned intervals of the windows a span reads, each weighted by the readings the window gives
 * the span, for a metric whose {@code expected.interval} is {@code learned}: their weighted median
 * is the span's interval. Weighted by readings, so that a minute of 12 readings does not count as
 * much as an hour of 720; a median, as each window's own is ({@code LearnedInterval}), so that a
 * few windows of a sensor sending slowly for a while do not move it. Windows without an interval (a
 * single reading, a document older than schema_version 4 or with a configured interval) are left
 * out.
 */
final class LearnedIntervals {

  /** Readings by interval, in ms: sorted, so the median is one walk. */
  private final TreeMap<Long, Long> readingsByInterval = new TreeMap<>();

  private long readings;

  /** A window's interval, null for none, weighted by the {@code readings} it gives the span. */
  void add(final Long intervalMillis, final long readings) {
    if (intervalMillis == null || readings <= 0) {
      return;
    }
    readingsByInterval.merge(intervalMillis, readings, Long::sum);
    this.readings += readings;
  }

  /**
   * The weighted median: the first interval, in increasing order, at which the readings counted
   * reach half of all of them; the lower middle one of an even number, so that it is one of the
   * windows' intervals. Empty when no window had one.
   */
  OptionalLong median() {
    long counted = 0;
    for (final Map.Entry<Long, Long> interval : readingsByInterval.entrySet()) {
      counted += interval.getValue();
      if (2 * counted >= readings) {
        return OptionalLong.of(interval.getKey());
      }
    }
    return OptionalLong.empty();
  }

  /** The weighted median of {@code windows}' intervals, each weighted by its readings; or null. */
  static Long medianOf(final Iterable<WindowTotals> windows) {
    final LearnedIntervals intervals = new LearnedIntervals();
    windows.forEach(window -> intervals.add(window.learnedIntervalMillis(), window.count()));
    final OptionalLong median = intervals.median();
    return median.isPresent() ? median.getAsLong() : null;
  }
}
