package io.bucketer.query;

import io.bucketer.buckets.WindowQuality;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The resends and late readings of a range, added up from the windows its plan reads: each whole
 * window's, and, where an edge cuts a window of the finest granularity, that window's whole counts.
 * A count says when a reading arrived, not at which time it was, so a cut window's cannot be split:
 * it counts in every range it overlaps (an upper bound for the range, never a miss), once however
 * many stretches of the range it holds. Unknown when any window read does not know its own.
 */
final class RangeCounts {

  private final Set<Long> cutWindows = new HashSet<>();
  private WindowQuality sum = WindowQuality.NONE;
  private boolean unknown;

  /** A whole window read. */
  void window(final WindowTotals window) {
    add(window.quality());
  }

  /** The finest windows a stretch read raw was read from, by start. */
  void cut(final Map<Long, WindowQuality> windows) {
    windows.forEach(
        (start, quality) -> {
          if (cutWindows.add(start)) {
            add(quality);
          }
        });
  }

  private void add(final WindowQuality quality) {
    if (quality == null) {
      unknown = true;
    } else if (!unknown) {
      sum = sum.plus(quality);
    }
  }

  /** The range's counts; null when unknown. */
  WindowQuality finish() {
    return unknown ? null : sum;
  }
}
