package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.sketch.ValueSketch;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The read path: statistics of a series over a range, and its windows of one granularity, from
 * MongoDB and, when given, the processor's live state. Statistics follow {@link RangePlan}: whole
 * windows of the coarsest granularity that fits, finer ones at the edges, raw readings where an
 * edge cuts a window of the finest.
 */
public final class SeriesQueries {

  /**
   * The statistics of a range, and what was read to compute them.
   *
   * @param stats the computed fields of the range's readings; null when it has none
   * @param quality how the range's readings arrived, and how many were expected ({@link
   *     RangeCounts})
   */
  public record Statistics(
      BucketStats stats,
      TimeWeight timeWeight,
      RangeSketch sketch,
      ReadingQuality quality,
      long documentsRead,
      long stateWindowsRead) {

    public long count() {
      return stats == null ? 0 : stats.count();
    }

    /** The fields below are NaN, or empty, for an empty range. */
    public double sum() {
      return stats == null ? Double.NaN : stats.sum();
    }

    public double min() {
      return stats == null ? Double.NaN : stats.min();
    }

    public double max() {
      return stats == null ? Double.NaN : stats.max();
    }

    public double average() {
      return stats == null ? Double.NaN : stats.average();
    }

    /** The population standard deviation; NaN also when a document read lacks it. */
    public double standardDeviation() {
      return stats == null ? Double.NaN : stats.standardDeviation();
    }

    /** The reading with the earliest time, when the range has readings and its value is known. */
    public Optional<Measurement> first() {
      return known(stats == null ? null : stats.first());
    }

    /** The reading with the latest time, when the range has readings and its value is known. */
    public Optional<Measurement> last() {
      return known(stats == null ? null : stats.last());
    }

    private static Optional<Measurement> known(final Measurement reading) {
      return reading == null || Double.isNaN(reading.value())
          ? Optional.empty()
          : Optional.of(reading);
    }
  }

  /**
   * The time-weighted part of a range, exact: covered time, integral and gaps of the series' step
   * function over {@code [from, to)}.
   *
   * @param part the range's part; null when unknown, {@code missing} says why
   * @param weighting the series' max gap and interpolation, which every part read was computed with
   * @param spanMillis {@code to - from}
   * @param integralUnit the unit the API gives the integral in ({@code integral.unit.metrics})
   * @param missing null when the part is known; else {@code window_without_time_weight} (a window
   *     read has none: a document written before schema_version 3), {@code max_gap_changed} (a
   *     document computed with another max gap than the series' metric has now) or {@code
   *     interpolation_changed} (with the other interpolation); the part of a window read from the
   *     state is computed from its readings, an open one's as if it closed now
   */
  public record TimeWeight(
      TimeWeighted part,
      TimeWeighting weighting,
      long spanMillis,
      IntegralUnits.Unit integralUnit,
      String missing) {

    /** The integral in {@link #integralUnit}; NaN when unknown. */
    public double integral() {
      return part == null ? Double.NaN : integralUnit.of(part.integral());
    }

    /** The time-weighted average; NaN when unknown or nothing is covered. */
    public double twa() {
      return part == null ? Double.NaN : part.twa().orElse(Double.NaN);
    }

    /** The covered fraction of the range; NaN when unknown. */
    public double coverage() {
      return part == null ? Double.NaN : part.coverage(spanMillis);
    }
  }

  /**
   * The quantile sketch of a range: the exact merge of the stored sketches of the whole windows
   * read and a sketch of the readings read raw, so its quantiles are within {@code
   * relativeAccuracy} of the exact ones, and it counts every reading of the range.
   *
   * @param sketch the sketch of the range's readings; null when unknown, {@code missing} says why
   * @param relativeAccuracy the series' α ({@code quantiles.relative.accuracy}); empty when
   *     quantiles are off for it
   * @param missing null when the sketch is known; else {@code quantiles_off}, {@code
   *     window_without_sketch} (a stored window read has none: written before sketches were kept,
   *     or with quantiles off, or its sketch does not decode), or {@code accuracy_changed} (a
   *     stored window's sketch has another relative accuracy than the series has now)
   */
  public record RangeSketch(ValueSketch sketch, OptionalDouble relativeAccuracy, String missing) {}

  /** Windows of one granularity, and what was read to find them. */
  public record Windows(List<WindowTotals> windows, long documentsRead, long stateWindowsRead) {}

  /**
   * The points of a chart, how they were drawn, and what was read to find them.
   *
   * @param readFrom where the windows read are stored: a collection, or a coarser one's summaries
   * @param expected what the series is expected to send, for each point's {@link #quality}
   */
  public record Points(
      List<ChartPoint> points,
      Resolution resolution,
      String readFrom,
      ExpectedReadings expected,
      long documentsRead,
      long stateWindowsRead) {

    /**
     * How {@code point}'s readings arrived, over its whole span: its windows' counts added up, and
     * the readings expected in the span, at the configured interval or at the one its windows
     * learned. A point without readings has counted no resend and no late reading (each is a
     * reading its window holds), whatever fills it, and has learned no interval.
     */
    public ReadingQuality quality(final ChartPoint point) {
      if (point instanceof ChartPoint.Measured measured) {
        final WindowTotals totals = measured.totals();
        final Long learned = totals.learnedIntervalMillis();
        return expected.of(
            point.start(),
            point.end(),
            totals.count(),
            totals.quality(),
            learned == null ? OptionalLong.empty() : OptionalLong.of(learned));
      }
      return expected.of(point.start(), point.end(), 0, WindowQuality.NONE);
    }
  }

  private final StoredBuckets stored;
  private final RollupPlan plan;
  private final Retention retention;
  private final Clock clock;
  private final TimeWeightings weightings;
  private final SketchAccuracies accuracies;
  private final ExpectedIntervals expectedIntervals;
  private final IntegralUnits integralUnits;

  /** Queries of documents kept for ever, of series computed with the defaults. */
  public SeriesQueries(final StoredBuckets stored) {
    this(stored, Retention.NONE, Clock.systemUTC());
  }

  /** Queries of series computed with the defaults, their integrals in value·seconds. */
  public SeriesQueries(final StoredBuckets stored, final Retention retention, final Clock clock) {
    this(stored, retention, clock, WindowComputations.DEFAULT, IntegralUnits.SECONDS);
  }

  /**
   * @param retention how long MongoDB keeps each granularity's documents: a query that would need
   *     documents already expired is refused rather than answered from what is left
   * @param computations what the processor computes each window with, and so what answers follow:
   *     each metric's max gap and interpolation (the time-weighted part of a range is folded with
   *     them, and only from documents computed with them); its sketch accuracy (a range's sketch
   *     merges only stored sketches of it, and sketches its raw readings with it); and how often it
   *     is expected to send (the readings expected in a range or a point, and so its completeness,
   *     follow from it alone, not from what documents were written with, so that a span without any
   *     document expects its readings too)
   * @param integralUnits the unit of each metric's integral in answers
   */
  public SeriesQueries(
      final StoredBuckets stored,
      final Retention retention,
      final Clock clock,
      final WindowComputations computations,
      final IntegralUnits integralUnits) {
    this.stored = stored;
    this.plan = new RollupPlan(stored.granularities());
    this.retention = retention;
    this.clock = clock;
    this.weightings = computations.timeWeightings();
    this.accuracies = computations.sketchAccuracies();
    this.expectedIntervals = computations.expectedIntervals();
    this.integralUnits = integralUnits;
  }

  public List<Granularity> granularities() {
    return plan.granularities();
  }

  /**
   * count, sum, avg, min, max, standard deviation, and first and last reading of {@code series}
   * over {@code [from, to)}, and its exact time-weighted part ({@link RangeTimeWeight}): the stored
   * parts of the whole windows read, the raw readings' at the edges, bridges between them, and a
   * leading stretch held by the series' last reading before {@code from} (one more document read
   * when the range does not start with a stored window; with linear interpolation, also one for the
   * reading after {@code to} when it does not end with one); and its quantile sketch ({@link
   * RangeQuantiles}), merged from the same windows' sketches and the same raw readings; and the
   * resends and late readings of the windows read ({@link RangeCounts}), beside the readings
   * expected over the range.
   *
   * @throws IllegalArgumentException when {@code from >= to}
   */
  public Statistics statistics(
      final SeriesKey series, final long from, final long to, final LiveWindows live) {
    final List<RangePlan.Part> parts = RangePlan.of(plan.granularities(), from, to);
    for (final RangePlan.Part part : parts) {
      checkKept(
          part instanceof RangePlan.WholeBuckets whole
              ? stored.documentsOf(whole.granularity())
              : plan.granularities().get(0),
          part.from());
    }
    final TimeWeighting how = weightings.of(series);
    final boolean learns = expectedIntervals.learns(series);
    final SeriesView view = new SeriesView(series, stored, live, plan, learns ? how : null);
    final RangeTimeWeight timeWeight =
        new RangeTimeWeight(
            from,
            to,
            how,
            () -> view.readingBefore(from, how.maxGapMillis()),
            () -> view.readingAfter(to, how.maxGapMillis()),
            view::readingsOf,
            view::fromState);
    final RangeQuantiles quantiles =
        new RangeQuantiles(accuracies.of(series), view::readingsOf, view::fromState);
    final RangeCounts counts = new RangeCounts();
    final LearnedIntervals intervals = new LearnedIntervals();
    // The parts come in time order, so each merges in as the later one.
    BucketStats stats = null;
    for (final RangePlan.Part part : parts) {
      if (part instanceof RangePlan.WholeBuckets whole) {
        for (final WindowTotals window :
            view.windows(whole.granularity(), whole.from(), whole.to())) {
          stats = stats == null ? window.stats() : stats.merge(window.stats());
          timeWeight.window(window);
          quantiles.window(window);
          counts.window(window);
          if (learns) {
            intervals.add(
                view.fromState(window)
                    ? view.learnedInterval(window)
                    : window.learnedIntervalMillis(),
                window.count());
          }
        }
      } else {
        final StoredBuckets.Stretch stretch = view.stretch(part.from(), part.to());
        final List<Measurement> readings = stretch.readings();
        counts.cut(stretch.windows());
        if (learns) {
          cutIntervals(intervals, stretch);
        }
        timeWeight.readings(part.from(), part.to(), readings);
        quantiles.readings(readings);
        if (!readings.isEmpty()) {
          final BucketStats ofReadings = BucketStats.ofAll(readings, null);
          stats = stats == null ? ofReadings : stats.merge(ofReadings);
        }
      }
    }
    final RangeTimeWeight.Result folded = timeWeight.finish();
    return new Statistics(
        stats,
        new TimeWeight(
            folded.part(),
            folded.weighting(),
            folded.spanMillis(),
            integralUnits.of(series),
            folded.missing()),
        quantiles.finish(),
        new ExpectedReadings(series, expectedIntervals)
            .of(from, to, stats == null ? 0 : stats.count(), counts.finish(), intervals.median()),
        view.documentsRead(),
        view.stateWindowsRead());
  }

  /**
   * Adds the learned intervals of the finest windows a stretch read raw, each weighted by the
   * readings it gives the stretch, not by all of its own: a range that cuts a minute holds only
   * part of it.
   */
  private void cutIntervals(final LearnedIntervals intervals, final StoredBuckets.Stretch stretch) {
    final Granularity finest = plan.granularities().get(0);
    final Map<Long, Long> readingsByWindow = new HashMap<>();
    for (final Measurement reading : stretch.readings()) {
      readingsByWindow.merge(finest.windowStart(reading.timestamp()), 1L, Long::sum);
    }
    readingsByWindow.forEach(
        (start, readings) -> intervals.add(stretch.learnedIntervals().get(start), readings));
  }

  /**
   * The windows of {@code granularity} that overlap {@code [from, to)} and have readings, whole (a
   * chart's points), in start order.
   *
   * @throws IllegalArgumentException when {@code granularity} is not configured
   */
  public Windows windows(
      final SeriesKey series,
      final Granularity granularity,
      final long from,
      final long to,
      final LiveWindows live) {
    if (!plan.granularities().contains(granularity)) {
      throw new IllegalArgumentException("not a configured granularity: " + granularity);
    }
    checkKept(stored.documentsOf(granularity), granularity.windowStart(from));
    final SeriesView view = new SeriesView(series, stored, live, plan);
    final List<WindowTotals> windows = view.windows(granularity, granularity.windowStart(from), to);
    return new Windows(windows, view.documentsRead(), view.stateWindowsRead());
  }

  /**
   * The points of a chart of {@code series}, as {@code resolution} draws them: the windows of its
   * granularity in its points, whole, each point the exact merge of its windows; the points without
   * readings as {@code fill} says. Windows are read as {@link #windows} reads them (minutes from
   * their hours' summaries, open windows from the state), and counted alike.
   *
   * @throws IllegalArgumentException when the granularity is not configured
   */
  public Points points(
      final SeriesKey series,
      final Resolution resolution,
      final GapFill fill,
      final LiveWindows live) {
    final Granularity granularity = resolution.read();
    if (!plan.granularities().contains(granularity)) {
      throw new IllegalArgumentException("not a configured granularity: " + granularity);
    }
    checkKept(stored.documentsOf(granularity), resolution.firstStart());
    final SeriesView view =
        new SeriesView(
            series,
            stored,
            live,
            plan,
            expectedIntervals.learns(series) ? weightings.of(series) : null);
    final List<WindowTotals> windows =
        withStateParts(
            series, view, view.windows(granularity, resolution.firstStart(), resolution.lastEnd()));
    return new Points(
        fill.apply(PointMerge.of(windows, resolution), resolution),
        resolution,
        stored.readFrom(granularity),
        new ExpectedReadings(series, expectedIntervals),
        view.documentsRead(),
        view.stateWindowsRead());
  }

  /**
   * {@code windows} with the time-weighted part and quantile sketch of each window read from the
   * processor's state, which keeps neither, computed from its readings there as a range's
   * statistics compute them: an open window's as if it closed now. Its part stays unknown when the
   * reading held into it (or, with linear interpolation, the one after a closed window) cannot be
   * told. For a series that learns its interval, each such window also learns its own from its
   * readings ({@link SeriesView#learnedInterval}), also one whose document lent it the rest: a
   * minute read from its hour's summary would have the hour's.
   */
  private List<WindowTotals> withStateParts(
      final SeriesKey series, final SeriesView view, final List<WindowTotals> windows) {
    final TimeWeighting how = weightings.of(series);
    final OptionalDouble accuracy = accuracies.of(series);
    final List<WindowTotals> completed = new ArrayList<>(windows.size());
    for (final WindowTotals stateOrStored : windows) {
      if (!view.fromState(stateOrStored)) {
        completed.add(stateOrStored);
        continue;
      }
      final WindowTotals window =
          stateOrStored.withLearnedInterval(view.learnedInterval(stateOrStored));
      if (window.timeWeighted() != null) {
        completed.add(window);
        continue;
      }
      final List<Measurement> readings = view.readingsOf(window);
      if (readings.size() != window.count()) {
        // Not every reading of the window is in the state's log: nothing to compute them from.
        completed.add(window);
        continue;
      }
      final StoredBuckets.NearReading before =
          view.readingBefore(window.start(), how.maxGapMillis());
      final StoredBuckets.NearReading after =
          how.interpolation() == Interpolation.LINEAR && !window.open()
              ? view.readingAfter(window.end(), how.maxGapMillis())
              : new StoredBuckets.NearReading(true, null);
      final TimeWeighted part =
          before.known() && after.known()
              ? TimeWeighted.ofReadings(
                  window.start(), window.end(), before.reading(), readings, after.reading(), how)
              : null;
      completed.add(
          new WindowTotals(
              window.granularity(),
              window.start(),
              window.stats(),
              window.open(),
              part,
              part == null ? null : how,
              accuracy.isPresent()
                  ? ValueSketch.of(readings, Measurement::value, accuracy.getAsDouble())
                  : null,
              window.quality(),
              window.learnedIntervalMillis()));
    }
    return completed;
  }

  /**
   * @throws IllegalArgumentException when documents of {@code documents} from {@code from} on may
   *     have expired: an answer from what is left would be silently short
   */
  private void checkKept(final Granularity documents, final long from) {
    final Optional<Instant> keptFrom = retention.keptFrom(documents, clock.instant());
    if (keptFrom.isPresent() && from < keptFrom.get().toEpochMilli()) {
      throw new IllegalArgumentException(
          "the range reaches past what MongoDB keeps: "
              + documents
              + " documents are kept for "
              + TimeSpans.format(retention.of(documents).orElseThrow().toMillis())
              + " (retention "
              + retention
              + "), so nothing before "
              + keptFrom.get()
              + " can be answered at "
              + documents
              + (documents.equals(plan.granularities().get(plan.granularities().size() - 1))
                  ? ""
                  : "; a range of whole coarser windows is read from their own documents"));
    }
  }

  /** True when MongoDB or the live state has any window of {@code series}. */
  public boolean exists(final SeriesKey series, final LiveWindows live) {
    final Granularity finest = plan.granularities().get(0);
    return live.holdsAny(series, finest) || stored.hasSeries(series);
  }

  /**
   * Up to {@code limit} stored series whose sensor id starts with one of {@code prefixes}, in
   * order.
   */
  public List<SeriesKey> series(final List<String> prefixes, final int limit) {
    return stored.series(prefixes, limit);
  }

  /** Up to {@code limit} stored series whose sensor id starts with {@code prefix}, in order. */
  public List<SeriesKey> series(final String prefix, final int limit) {
    return stored.series(prefix, limit);
  }
}
