package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tests' own count of each window's resends and late readings, from the deliveries of one
 * series alone: a reading at a time already delivered is a resend; any other is late when the
 * largest time delivered before it has closed its finest window ({@code end + grace}). Every window
 * holding the reading counts it. Kept apart from the lifecycle's rules (which windows take a
 * reading directly, roll-ups), so that a bucket emitted at any moment must carry the counts of the
 * deliveries up to that moment.
 */
final class QualityOracle {

  private final List<Granularity> granularities;
  private final long graceMillis;
  private final Map<String, WindowQuality> counts = new HashMap<>();
  private final Set<Long> delivered = new HashSet<>();
  private long clock = Long.MIN_VALUE;
  private long resendsSeen;
  private long lateReadingsSeen;

  QualityOracle(final List<Granularity> granularities, final long graceMillis) {
    this.granularities = granularities;
    this.graceMillis = graceMillis;
  }

  /** Counts {@code reading}, about to be delivered. */
  void delivering(final Measurement reading) {
    final long time = reading.timestamp();
    final boolean resend = !delivered.add(time);
    final Granularity finest = granularities.get(0);
    final boolean late =
        !resend
            && clock != Long.MIN_VALUE
            && clock >= finest.windowEnd(finest.windowStart(time)) + graceMillis;
    if (resend || late) {
      for (final Granularity granularity : granularities) {
        counts.merge(
            key(granularity, granularity.windowStart(time)),
            resend ? new WindowQuality(1, 0) : new WindowQuality(0, 1),
            WindowQuality::plus);
      }
    }
    clock = Math.max(clock, time);
  }

  /** Checks an emitted bucket's counts, and its summaries', against the deliveries so far. */
  void check(final ClosedBucket bucket, final String what) {
    final WindowQuality quality = bucket.extras().quality();
    assertThat(quality)
        .as("%s %s@%s quality", what, bucket.granularity(), bucket.windowStart())
        .isEqualTo(expected(bucket.granularity(), bucket.windowStart()));
    resendsSeen += quality.resends();
    lateReadingsSeen += quality.lateReadings();
    for (final WindowSummary summary : bucket.summaries()) {
      assertThat(summary.quality())
          .as("%s %s@%s summary %s", what, bucket.granularity(), bucket.windowStart(), summary)
          .isEqualTo(expected(summary.granularity(), summary.start()));
    }
  }

  long resendsSeen() {
    return resendsSeen;
  }

  long lateReadingsSeen() {
    return lateReadingsSeen;
  }

  private WindowQuality expected(final Granularity granularity, final long start) {
    return counts.getOrDefault(key(granularity, start), WindowQuality.NONE);
  }

  private static String key(final Granularity granularity, final long start) {
    return granularity + "@" + start;
  }
}
