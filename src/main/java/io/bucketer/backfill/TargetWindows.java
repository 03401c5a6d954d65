package io.bucketer.backfill;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.query.StoreUnavailableException;
import io.bucketer.query.StoredBuckets.NearReading;
import io.bucketer.query.StoredWindows;
import io.bucketer.query.StoredWindows.StoredWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

/**
 * The windows of one backfill target, built one at a time, in series and start order, from its
 * source windows in the same order ({@link RolledUpWindow}): the documents of each window, as they
 * are built. One series' window is held at a time, with the source window read after it.
 *
 * <p>The source windows are the stored ones of the step's range, or, for a chained target, those
 * another target of the same backfill builds (which may start before the range and end after it,
 * since that target's range is aligned to its coarsest consumer's, {@link BackfillPlan}): those
 * outside the range are built into no window, but the one before a series' first window of the
 * range gives its last reading, and the one after its last window its next reading.
 *
 * <p>A series' readings next to a window are taken from the source windows read around it when
 * there are some of the same series, else looked up in the stored source documents: so a chained
 * target sees the windows its source builds in this run, written or not (a dry run), and the stored
 * ones beyond them, as it would read them stored after a run that wrote them.
 */
final class TargetWindows implements Iterator<List<ClosedBucket>> {

  private final BackfillPlan.Step step;
  private final Iterator<StoredWindow> sources;
  private final StoredWindows stored;
  private final int maxSummaries;
  private final BackfillCounts.Target counts;
  private final List<StoredWindow> span = new ArrayList<>();

  /** The series' latest source window before the span, when one was read. */
  private StoredWindow before;

  /** The source window read after the span, not yet taken. */
  private StoredWindow ahead;

  /** A window of the series of the last window built, until that series is counted done. */
  private StoredWindow lastOfSeries;

  private List<ClosedBucket> built;

  /**
   * @param sources the source windows, in series and start order
   * @param counts told each source window of the range read, window built and series done
   */
  TargetWindows(
      final BackfillPlan.Step step,
      final Iterator<StoredWindow> sources,
      final StoredWindows stored,
      final int maxSummaries,
      final BackfillCounts.Target counts) {
    this.step = step;
    this.sources = sources;
    this.stored = stored;
    this.maxSummaries = maxSummaries;
    this.counts = counts;
  }

  @Override
  public boolean hasNext() {
    while (built == null) {
      final StoredWindow window = nextSource();
      if (window == null) {
        if (span.isEmpty()) {
          seriesDone();
          return false;
        }
        built = build(null);
        break;
      }
      if (!span.isEmpty() && !sameTargetWindow(span.get(0), window)) {
        ahead = window;
        built = build(window);
        break;
      }
      take(window);
    }
    return true;
  }

  @Override
  public List<ClosedBucket> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    final List<ClosedBucket> window = built;
    built = null;
    return window;
  }

  private StoredWindow nextSource() {
    if (ahead != null) {
      final StoredWindow window = ahead;
      ahead = null;
      return window;
    }
    try {
      return sources.hasNext() ? sources.next() : null;
    } catch (StoreUnavailableException | IllegalStateException e) {
      throw failedRead(e);
    }
  }

  /** Adds {@code window} to the span when it is in the range; else keeps what it tells. */
  private void take(final StoredWindow window) {
    if (window.start() < step.from().toEpochMilli()) {
      before = window;
      return;
    }
    if (window.start() >= step.until().toEpochMilli()) {
      return;
    }
    if (lastOfSeries != null && !lastOfSeries.series().equals(window.series())) {
      seriesDone();
    }
    counts.sourceWindow();
    span.add(window);
  }

  private void seriesDone() {
    if (lastOfSeries != null) {
      counts.seriesDone();
      lastOfSeries = null;
    }
  }

  private boolean sameTargetWindow(final StoredWindow one, final StoredWindow other) {
    return one.series().equals(other.series())
        && step.target().windowStart(one.start()) == step.target().windowStart(other.start());
  }

  /** The documents of the span's window; {@code after} is the source window read after it. */
  private List<ClosedBucket> build(final StoredWindow after) {
    final StoredWindow first = span.get(0);
    final long start = step.target().windowStart(first.start());
    final long end = step.target().windowEnd(start);
    // Asked only once the sources' weighting is known: it bounds how far to look.
    final long maxGap = first.weighting() == null ? 0 : first.weighting().maxGapMillis();
    final StoredWindow previous =
        before != null && before.series().equals(first.series()) ? before : null;
    final StoredWindow next = after != null && after.series().equals(first.series()) ? after : null;
    final List<ClosedBucket> documents;
    try {
      documents =
          RolledUpWindow.buckets(
              first.series(),
              step.target(),
              step.source(),
              start,
              span,
              maxSummaries,
              () ->
                  previous != null
                      ? new NearReading(true, previous.stats().last())
                      : lookUp(
                          () ->
                              stored.lastReadingBefore(
                                  first.series(), step.source(), start, maxGap)),
              () ->
                  next != null
                      ? firstReadingOf(next, end, maxGap)
                      : lookUp(
                          () ->
                              stored.firstReadingFrom(first.series(), step.source(), end, maxGap)),
              SourceQuality.AS_READ);
    } catch (IllegalArgumentException e) {
      throw new BackfillException(
          BackfillException.Kind.UNBUILDABLE_WINDOW,
          String.format(
              "the %s window of %s at %s cannot be built from its stored %s windows: %s. Repair or"
                  + " remove those documents, then run backfill again; what was written stays",
              step.target(),
              first.series(),
              Instant.ofEpochMilli(start),
              step.source(),
              e.getMessage()),
          e);
    }
    counts.window();
    lastOfSeries = first;
    before = span.get(span.size() - 1);
    span.clear();
    return documents;
  }

  /**
   * What the stored lookup from {@code time} finds when {@code next} is the series' first source
   * window at or after it ({@link StoredWindows#firstReadingFrom}): its first reading, if before
   * {@code time + lookAheadMillis}.
   */
  private static NearReading firstReadingOf(
      final StoredWindow next, final long time, final long lookAheadMillis) {
    if (next.start() >= time + lookAheadMillis) {
      return new NearReading(true, null);
    }
    final Measurement first = next.stats().first();
    if (first == null) {
      return new NearReading(false, null);
    }
    return new NearReading(true, first.timestamp() < time + lookAheadMillis ? first : null);
  }

  private NearReading lookUp(final Supplier<NearReading> read) {
    try {
      return read.get();
    } catch (StoreUnavailableException e) {
      throw failedRead(e);
    }
  }

  private BackfillException failedRead(final RuntimeException e) {
    return new BackfillException(
        BackfillException.Kind.MONGODB,
        step.target()
            + ": "
            + e.getMessage()
            + ". What was written stays: run backfill again once it is fixed",
        e);
  }
}
