package io.bucketer.query;

import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one series is expected to send, as the answering process is configured ({@link
 * ExpectedIntervals}). A configured interval applies to every span asked about, also to stretches
 * without any document (a sensor down for hours) and to windows written before it was set. A
 * learned interval is the span's own: the weighted median of the learned intervals of the windows
 * read ({@link LearnedIntervals}), which then measures the whole span as a configured one does, its
 * silent stretches included; a span whose windows learned none has none.
 */
public record ExpectedReadings(SeriesKey series, ExpectedIntervals intervals) {

  /**
   * The quality of {@code [from, to)}, which holds {@code count} readings and whose windows counted
   * {@code counts} (null when unknown) and learned {@code learned} (their weighted median; empty
   * when none did, or the series does not learn its interval).
   */
  public ReadingQuality of(
      final long from,
      final long to,
      final long count,
      final WindowQuality counts,
      final OptionalLong learned) {
    final OptionalLong configured = intervals.of(series);
    final OptionalLong ownLearned = intervals.learns(series) ? learned : OptionalLong.empty();
    final OptionalLong interval = configured.isPresent() ? configured : ownLearned;
    return new ReadingQuality(
        counts,
        configured,
        ownLearned,
        interval.isPresent()
            ? OptionalDouble.of((double) (to - from) / interval.getAsLong())
            : OptionalDouble.empty(),
        count);
  }

  /** The quality of a span whose windows learned no interval. */
  public ReadingQuality of(
      final long from, final long to, final long count, final WindowQuality counts) {
    return of(from, to, count, counts, OptionalLong.empty());
  }
}
