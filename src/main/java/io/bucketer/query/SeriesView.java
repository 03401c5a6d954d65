package io.bucketer.query;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.LearnedInterval;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One series as one query sees it: the processor's state where it still holds a window, MongoDB for
 * the rest, and a count of what was read from each.
 *
 * <p>The state wins for every window it holds: an open window is in MongoDB not at all, a closed
 * one not yet or in an older revision. MongoDB answers for the windows the state has forgotten,
 * which no reading can change any more. A window of a rolled-up granularity is completed with the
 * open windows of the granularities it is rolled up from: their readings are in them alone until
 * they close.
 */
final class SeriesView {

  private final SeriesKey series;
  private final StoredBuckets stored;
  private final LiveWindows live;
  private final RollupPlan plan;

  /**
   * The series' weighting when it learns its interval, whose max gap bounds the reading a window
   * carries in; null when it does not learn one.
   */
  private final TimeWeighting learnsWith;

  private long documentsRead;
  private long stateWindowsRead;

  /** The windows answered from the state, by granularity and start. */
  private final Set<String> fromState = new HashSet<>();

  /** The readings of windows of the state, read once for all the fields computed from them. */
  private final Map<String, List<Measurement>> stateReadings = new HashMap<>();

  /** The readings before a time, by time and look-back: a window's carry-in is asked for twice. */
  private final Map<String, StoredBuckets.NearReading> readingsBefore = new HashMap<>();

  /** A view of a series that does not learn its interval. */
  SeriesView(
      final SeriesKey series,
      final StoredBuckets stored,
      final LiveWindows live,
      final RollupPlan plan) {
    this(series, stored, live, plan, null);
  }

  /**
   * @param learnsWith the series' weighting when it learns its interval: the state's windows then
   *     learn theirs from their readings, as the processor does when it writes them; null when it
   *     does not learn one
   */
  SeriesView(
      final SeriesKey series,
      final StoredBuckets stored,
      final LiveWindows live,
      final RollupPlan plan,
      final TimeWeighting learnsWith) {
    this.series = series;
    this.stored = stored;
    this.live = live;
    this.plan = plan;
    this.learnsWith = learnsWith;
  }

  /** The windows of {@code granularity} starting in {@code [from, to)} that have readings. */
  List<WindowTotals> windows(final Granularity granularity, final long from, final long to) {
    final TreeMap<Long, WindowTotals> byStart = new TreeMap<>();
    for (final LiveWindows.Window window : live.windows(series, granularity, from, to)) {
      stateWindowsRead++;
      byStart.put(
          window.start(),
          new WindowTotals(
              granularity,
              window.start(),
              window.stats(),
              window.open(),
              null,
              null,
              null,
              window.quality()));
    }
    // Finer windows of every window starting before `to`, even where it ends after `to`.
    final long windowsEnd = granularity.windowEnd(granularity.windowStart(to - 1));
    for (Optional<Granularity> finer = plan.sourceOf(granularity);
        finer.isPresent();
        finer = plan.sourceOf(finer.get())) {
      for (final LiveWindows.Window window : live.windows(series, finer.get(), from, windowsEnd)) {
        stateWindowsRead++;
        if (window.open()) {
          final long start = granularity.windowStart(window.start());
          byStart.merge(
              start,
              new WindowTotals(
                  granularity, start, window.stats(), true, null, null, null, window.quality()),
              WindowTotals::plus);
        }
      }
    }
    byStart.keySet().forEach(start -> fromState.add(key(granularity, start)));
    final StoredBuckets.Read<List<WindowTotals>> fromMongo =
        stored.windows(series, granularity, from, to);
    documentsRead += fromMongo.documentsRead();
    fromMongo.found().forEach(window -> byStart.merge(window.start(), window, SeriesView::newer));
    return new ArrayList<>(byStart.values());
  }

  /** True when {@code window}, found by {@link #windows}, came from the processor's state. */
  boolean fromState(final WindowTotals window) {
    return fromState.contains(key(window.granularity(), window.start()));
  }

  private static String key(final Granularity granularity, final long start) {
    return granularity.label() + "@" + start;
  }

  /**
   * The readings of {@code window}, one of the state's ({@link #fromState}): read once, however
   * many of the fields a range computes from them (its time-weighted part, its quantile sketch).
   * They end with its last one: no finer window after it is read for nothing.
   */
  List<Measurement> readingsOf(final WindowTotals window) {
    return stateReadings.computeIfAbsent(
        key(window.granularity(), window.start()),
        key -> measurements(window.start(), window.stats().lastTimestamp() + 1));
  }

  /**
   * The interval {@code window}, one of the state's ({@link #fromState}), learns from its readings
   * there and the reading it carries in, as the processor learns it when it writes the window
   * ({@link LearnedInterval}); null when the series does not learn one, when the window cannot tell
   * (a single reading, none carried in), or when not every reading of it is in the state's log. A
   * carried-in reading the documents cannot tell (written before schema_version 3) is left out: one
   * interval more or less hardly moves a median.
   */
  Long learnedInterval(final WindowTotals window) {
    return learnsWith == null ? null : learned(window.start(), readingsOf(window), window.count());
  }

  private Long learned(final long start, final List<Measurement> readings, final long count) {
    if (readings.size() != count) {
      return null;
    }
    final long maxGap = learnsWith.maxGapMillis();
    final Measurement before = readingBefore(start, maxGap).reading();
    // The processor carries in a reading only while its hold reaches into the window.
    final Measurement carryIn =
        before != null && before.timestamp() + maxGap > start ? before : null;
    return LearnedInterval.of(carryIn, readings);
  }

  /**
   * The state's window, which is newer than MongoDB's; with the stored time-weighted part and
   * quantile sketch when the window has closed and its document holds the same readings (the state
   * keeps neither of its own). Its resends and late readings are the state's always: a resend does
   * not revise a closed window, so its document may count fewer.
   */
  private static WindowTotals newer(final WindowTotals live, final WindowTotals stored) {
    final boolean sameReadings =
        live.count() == stored.count()
            && live.sum() == stored.sum()
            && live.min() == stored.min()
            && live.max() == stored.max();
    return live.open() || live.timeWeighted() != null || !sameReadings
        ? live
        : new WindowTotals(
            live.granularity(),
            live.start(),
            live.stats(),
            false,
            stored.timeWeighted(),
            stored.weighting(),
            stored.sketch(),
            live.quality());
  }

  /**
   * The readings with {@code from <= timestamp < to}, window by window of the finest granularity:
   * from the state's reading log while it holds that window, else from MongoDB.
   */
  List<Measurement> measurements(final long from, final long to) {
    return stretch(from, to, false).readings();
  }

  /**
   * The readings with {@code from <= timestamp < to}, as {@link #measurements} reads them, and the
   * resends and late readings of the finest windows they were read from (the state's, where it
   * holds the window), and, for a series that learns its interval, those windows' learned intervals
   * (a window of the state's learned from its readings there).
   */
  StoredBuckets.Stretch stretch(final long from, final long to) {
    return stretch(from, to, learnsWith != null);
  }

  private StoredBuckets.Stretch stretch(final long from, final long to, final boolean learn) {
    final Granularity finest = plan.granularities().get(0);
    final List<Measurement> found = new ArrayList<>();
    final Map<Long, WindowQuality> windows = new HashMap<>();
    final Map<Long, Long> learned = new HashMap<>();
    for (long start = finest.windowStart(from); start < to; start = finest.windowEnd(start)) {
      final long stretchFrom = Math.max(from, start);
      final long stretchTo = Math.min(to, finest.windowEnd(start));
      final List<LiveWindows.Window> held = live.windows(series, finest, start, start + 1);
      if (held.isEmpty()) {
        final StoredBuckets.Read<StoredBuckets.Stretch> fromMongo =
            stored.stretch(series, stretchFrom, stretchTo);
        documentsRead += fromMongo.documentsRead();
        found.addAll(fromMongo.found().readings());
        windows.putAll(fromMongo.found().windows());
        learned.putAll(fromMongo.found().learnedIntervals());
      } else {
        stateWindowsRead++;
        found.addAll(live.measurements(series, stretchFrom, stretchTo));
        windows.put(start, held.get(0).quality());
        if (learn) {
          // The whole window's readings, not the stretch's: it learns from all of them.
          final Long interval =
              learned(
                  start,
                  live.measurements(series, start, finest.windowEnd(start)),
                  held.get(0).stats().count());
          if (interval != null) {
            learned.put(start, interval);
          }
        }
      }
    }
    return new StoredBuckets.Stretch(found, windows, learned);
  }

  /**
   * The series' last reading before {@code time} that may still hold there (at most {@code
   * lookBackMillis} earlier): from the state's reading log when it holds one, else as the stored
   * documents know it.
   */
  StoredBuckets.NearReading readingBefore(final long time, final long lookBackMillis) {
    final String key = time + "-" + lookBackMillis;
    final StoredBuckets.NearReading known = readingsBefore.get(key);
    if (known != null) {
      return known;
    }
    final StoredBuckets.NearReading found = findReadingBefore(time, lookBackMillis);
    readingsBefore.put(key, found);
    return found;
  }

  private StoredBuckets.NearReading findReadingBefore(final long time, final long lookBackMillis) {
    final List<Measurement> held = live.measurements(series, time - lookBackMillis, time);
    if (!held.isEmpty()) {
      stateWindowsRead++;
      return new StoredBuckets.NearReading(true, held.get(held.size() - 1));
    }
    final StoredBuckets.Read<StoredBuckets.NearReading> fromMongo =
        stored.readingBefore(series, time, lookBackMillis);
    documentsRead += fromMongo.documentsRead();
    return fromMongo.found();
  }

  /**
   * The series' first reading at or after {@code time}, if earlier than {@code time +
   * lookAheadMillis}: from the state's reading log when it holds one, else as the stored documents
   * know it.
   */
  StoredBuckets.NearReading readingAfter(final long time, final long lookAheadMillis) {
    final List<Measurement> held = live.measurements(series, time, time + lookAheadMillis);
    if (!held.isEmpty()) {
      stateWindowsRead++;
      return new StoredBuckets.NearReading(true, held.get(0));
    }
    final StoredBuckets.Read<StoredBuckets.NearReading> fromMongo =
        stored.readingAfter(series, time, lookAheadMillis);
    documentsRead += fromMongo.documentsRead();
    return fromMongo.found();
  }

  long documentsRead() {
    return documentsRead;
  }

  long stateWindowsRead() {
    return stateWindowsRead;
  }
}
