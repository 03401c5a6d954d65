package io.bucketer.query;

import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;

/**
 * What one series is expected to send, as the answering process is configured ({@link
 * ExpectedIntervals}): the interval applies to every span asked about, also to stretches without
 * any document (a sensor down for hours) and to windows written before it was set. A learned
 * interval is no interval here: each window learns its own, and a span without readings has none.
 */
public record ExpectedReadings(SeriesKey series, ExpectedIntervals intervals) {

  /**
   * The quality of {@code [from, to)}, which holds {@code count} readings and whose windows counted
   * {@code counts} (null when unknown).
   */
  public ReadingQuality of(
      final long from, final long to, final long count, final WindowQuality counts) {
    return new ReadingQuality(
        counts, intervals.of(series), intervals.expected(series, from, to), count);
  }
}
