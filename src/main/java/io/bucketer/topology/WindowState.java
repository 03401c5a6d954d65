package io.bucketer.topology;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;

/**
 * One window of one series as the state store keeps it: running sums, whether the window has
 * closed, and the revision of its last emitted buckets.
 */
record WindowState(BucketStats stats, boolean closed, int revision) {

  static WindowState open(final BucketStats stats) {
    return new WindowState(stats, false, 0);
  }

  /** This window with one more reading; a closed window gets a new revision. */
  WindowState add(final Measurement measurement, final Integer utcOffsetMinutes) {
    return new WindowState(
        stats.add(measurement, utcOffsetMinutes), closed, closed ? revision + 1 : revision);
  }

  /** This open window with the readings of a closed finer window. */
  WindowState merge(final BucketStats finer) {
    return new WindowState(stats.merge(finer), closed, revision);
  }

  WindowState close() {
    return new WindowState(stats, true, revision);
  }
}
