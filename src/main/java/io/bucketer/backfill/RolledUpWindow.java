package io.bucketer.backfill;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.query.StoredBuckets.NearReading;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The bucket documents of one rolled-up window, built from the stored windows of its source
 * granularity, as the stream builds them: one {@link WindowSummary} per source window, in start
 * order, cut into documents of at most {@code maxSummaries} ({@link ClosedBucket#ofSummaries}), and
 * the whole window's stats the source windows' stats merged in start order, as the stream merges
 * each finer window into the coarser one when it closes. Each summary carries its source window's
 * quantile sketch and time-weighted part, and the window the merge of the sketches, as the
 * stream's, and the fold of the parts ({@link RolledUpTimeWeight}).
 *
 * <p><b>Quality: the sum of the source windows' counts, the interval they agree on.</b> Each
 * summary carries its source window's resends and late readings, and the window their sum, as the
 * stream's coarser window counts its finer windows'; unknown when one source's are (a document
 * older than {@code schema_version} 4), since a sum of some of them would read as a count. A stored
 * source window may not show yet a resend its coarser window counts (a resend alone does not
 * rewrite a closed window), so the sum can be lower than the stream's, never higher. The expected
 * interval is, like the max gap, the one the source documents were written with: theirs when all
 * say the same, else none (the metric's interval changed within the window, and no one length over
 * it holds).
 *
 * <p><b>Revision: the sum of the source windows' revisions.</b> A source window's revision counts
 * the changes it took after it closed (late readings, replaced values); the window built from them
 * took every one of those changes too. So the sum grows whenever a source window is revised, and a
 * backfill run again after late readings replaces exactly the windows they changed (a document is
 * replaced only by a higher revision), and nothing else.
 *
 * <p>The stream's revision of the same window counts the changes that came after that window itself
 * closed: the same sum when every change came after it closed, so a backfill over windows the
 * stream wrote leaves them alone. It differs in two cases, both of late readings within the
 * lateness horizon, which the default until keeps clear of (docs/recovery.md): a change that
 * reached a closed source window while this window was still open raised the source's revision only
 * (the sum is higher: backfill writes the window again, with the same readings), as when a late
 * reading in the window before moves that source window's time-weighted edge; and a late reading
 * that was the first of its source window opened it at revision 0 and raised this window's (the
 * stream's is higher: backfill leaves it, and a backfill run again does not see that reading as a
 * change).
 */
final class RolledUpWindow {

  private RolledUpWindow() {}

  /**
   * The documents of the {@code target} window of {@code series} starting at {@code start}, every
   * source window's quality unknown.
   *
   * @param sources the stored windows of the source granularity within it, in start order; at least
   *     one
   * @param lastBefore the series' last reading before the window, asked only when its part needs it
   * @param firstAfter its first reading after the window, asked only when its part needs it
   * @throws IllegalArgumentException when {@code sources} are out of order or outside the window
   */
  static List<ClosedBucket> buckets(
      final SeriesKey series,
      final Granularity target,
      final Granularity source,
      final long start,
      final List<StoredWindow> sources,
      final int maxSummaries,
      final Supplier<NearReading> lastBefore,
      final Supplier<NearReading> firstAfter) {
    return buckets(
        series,
        target,
        source,
        start,
        sources,
        maxSummaries,
        lastBefore,
        firstAfter,
        stored -> SourceQuality.UNKNOWN);
  }

  /**
   * As {@link #buckets(SeriesKey, Granularity, Granularity, long, List, int, Supplier, Supplier)},
   * with each source window's quality as {@code qualities} gives it.
   *
   * @param qualities what each source window's documents say of its counts and expected interval
   */
  static List<ClosedBucket> buckets(
      final SeriesKey series,
      final Granularity target,
      final Granularity source,
      final long start,
      final List<StoredWindow> sources,
      final int maxSummaries,
      final Supplier<NearReading> lastBefore,
      final Supplier<NearReading> firstAfter,
      final Function<StoredWindow, SourceQuality> qualities) {
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("a rolled-up window needs at least one source window");
    }
    final long end = target.windowEnd(start);
    final List<WindowSummary> summaries = new ArrayList<>(sources.size());
    BucketStats window = null;
    int revision = 0;
    long previous = Long.MIN_VALUE;
    WindowQuality quality = WindowQuality.NONE;
    final Long interval = qualities.apply(sources.get(0)).expectedIntervalMillis();
    boolean sameInterval = true;
    for (final StoredWindow stored : sources) {
      if (stored.start() <= previous || stored.start() < start || stored.start() >= end) {
        throw new IllegalArgumentException(
            "source window at "
                + Instant.ofEpochMilli(stored.start())
                + " is out of order or outside the "
                + target
                + " window at "
                + Instant.ofEpochMilli(start));
      }
      previous = stored.start();
      final SourceQuality stated = qualities.apply(stored);
      summaries.add(
          new WindowSummary(
              source,
              stored.start(),
              stored.stats(),
              stored.timeWeighted(),
              stored.sketch(),
              stated.quality()));
      window = window == null ? stored.stats() : window.merge(stored.stats());
      revision = Math.addExact(revision, stored.revision());
      quality = quality == null || stated.quality() == null ? null : quality.plus(stated.quality());
      sameInterval &= Objects.equals(interval, stated.expectedIntervalMillis());
    }
    return ClosedBucket.ofSummaries(
        series,
        target,
        start,
        window,
        summaries,
        revision,
        maxSummaries,
        withQuality(
            RolledUpTimeWeight.extras(
                start, end, sources, source::windowEnd, lastBefore, firstAfter, merged(sources)),
            quality,
            sameInterval ? interval : null));
  }

  /** {@code extras} (null for none) with the window's quality and expected interval. */
  private static WindowExtras withQuality(
      final WindowExtras extras, final WindowQuality quality, final Long expectedIntervalMillis) {
    if (extras == null) {
      return quality == null && expectedIntervalMillis == null
          ? null
          : new WindowExtras(null, null, null, null, quality, expectedIntervalMillis);
    }
    return new WindowExtras(
        extras.timeWeighted(),
        extras.carryIn(),
        extras.weighting(),
        extras.sketch(),
        quality,
        expectedIntervalMillis);
  }

  /**
   * The merge of the source windows' sketches, exactly the stream's: null when one has none, or
   * when their accuracies differ (a metric's accuracy changed), which merging would lose.
   */
  private static ValueSketch merged(final List<StoredWindow> sources) {
    final List<ValueSketch> sketches = new ArrayList<>(sources.size());
    for (final StoredWindow stored : sources) {
      final ValueSketch sketch = stored.sketch();
      if (sketch == null
          || sketch.relativeAccuracy() != sources.get(0).sketch().relativeAccuracy()) {
        return null;
      }
      sketches.add(sketch);
    }
    return ValueSketch.mergeAll(sketches.get(0).relativeAccuracy(), sketches);
  }
}
