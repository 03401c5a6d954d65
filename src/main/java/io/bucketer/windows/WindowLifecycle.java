package io.bucketer.windows;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.windows.HeldReadings.HeldReading;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The life of the windows of every granularity for the series of one task: open, add readings,
 * close, roll up, merge late readings, expire, and close quiet series by the wall clock. Plain Java
 * over a {@link WindowStore}; the Kafka Streams processor that hosts it only adapts its stores and
 * forwards what it emits.
 *
 * <p><b>Time is kept per series.</b> A series' clock is the greatest event time of its readings. A
 * window {@code [start, end)} closes once its series' clock reaches {@code end + grace}: its
 * buckets are emitted then, and closed finer windows are rolled up into the coarser ones before
 * those are checked. Per series, not per task (Kafka Streams' stream time), because the repartition
 * topic merges what several upstream tasks forward, each at its own pace: catching up on a backlog,
 * one can run hours of event time ahead of another, and a task-wide clock would call the slower
 * one's readings late.
 *
 * <p><b>The clock is derived, not written per reading.</b> Every accepted reading is kept in a
 * window of the finest granularity until its series' clock has moved a horizon past it, so the
 * clock is the latest reading of the series' latest finest window. It is held in memory and stored
 * only when the wall clock moves it past every reading (quiet series, below): a restart derives it
 * again from the windows and that stored value.
 *
 * <p><b>Late readings.</b> A closed window stays in the store, with every reading, until its
 * series' clock passes {@code end + grace + lateness horizon}. A reading for it in that time is
 * merged in and the window is emitted again, whole, with a higher revision; the coarser windows
 * that contain it are updated the same way, and so are the windows whose time-weighted edge it
 * moves ({@link EdgeRevisions}). After the horizon a reading is too late; a window past it is
 * forgotten once no window that can still change is emitted from it ({@link WindowExpiry}).
 *
 * <p><b>Readings at a time already held</b> are not added again: {@link HeldReadings} counts a
 * resend once, and keeps or replaces another value as {@link DuplicateTimestamps} says.
 *
 * <p><b>Quiet series.</b> A series that stops sending would keep its last windows open forever. The
 * host calls {@link #closeIdleSeries} on the wall clock: for every series that has sent nothing for
 * the idle timeout, it closes the windows whose {@code end + grace} has passed on the wall clock,
 * and moves the series' clock to them; a reading for one of them afterwards is late, and merged
 * within the horizon. A series silent for a whole horizon of wall-clock time forgets its closed
 * windows ({@link QuietSeries}).
 */
public final class WindowLifecycle {

  /**
   * Readings a finest window carries in its own value before they are sealed into a run stored
   * apart. 64 holds a minute of a 1 Hz sensor, so such a window is one value, written once per
   * commit; a busy sensor's window costs one more write per 64 readings instead of writing
   * thousands of readings again at every commit.
   */
  public static final int TAIL_CAPACITY = 64;

  /** What the lifecycle needs to know. */
  public record Settings(
      List<Granularity> granularities,
      Duration grace,
      Duration idleTimeout,
      Duration latenessHorizon,
      BucketLayout layout,
      DuplicateTimestamps duplicateTimestamps,
      WindowComputations computations) {

    /**
     * Settings with the default computations: step with a max gap of five minutes, sketches of the
     * default accuracy, no expected interval.
     */
    public Settings(
        final List<Granularity> granularities,
        final Duration grace,
        final Duration idleTimeout,
        final Duration latenessHorizon,
        final BucketLayout layout,
        final DuplicateTimestamps duplicateTimestamps) {
      this(
          granularities,
          grace,
          idleTimeout,
          latenessHorizon,
          layout,
          duplicateTimestamps,
          WindowComputations.DEFAULT);
    }

    /** Settings with the default policy for readings at a time already held, keep-last. */
    public Settings(
        final List<Granularity> granularities,
        final Duration grace,
        final Duration idleTimeout,
        final Duration latenessHorizon,
        final BucketLayout layout) {
      this(
          granularities,
          grace,
          idleTimeout,
          latenessHorizon,
          layout,
          DuplicateTimestamps.KEEP_LAST);
    }
  }

  /** What became of one reading. */
  public enum Outcome {
    ON_TIME,
    LATE_MERGED,
    TOO_LATE,
    /** Its series already held a reading with its time and value: counted once, nothing changed. */
    RESENT,
    /** It replaced the value of the reading its series held at its time ({@code keep-last}). */
    REPLACED,
    /**
     * Its series held a reading at its time with another value, which stayed ({@code keep-first}).
     */
    KEPT_FIRST,
    /** Its series held no state, and the {@link SeriesGate} refused it any: nothing changed. */
    REFUSED
  }

  private final WindowTimes times;
  private final Granularity finest;
  private final long idleTimeoutMillis;
  private final WindowBuckets buckets;
  private final HeldReadings heldReadings;
  private final EdgeRevisions edgeRevisions;
  private final WindowExpiry expiry;
  private final QuietSeries quietSeries;
  private final WindowStore store;
  private final LongConsumer openWindowsChanged;
  private final SeriesGate gate;

  /** Series that have state: their clocks, when they last sent and when to look at them next. */
  private final Map<SeriesKey, SeriesClock> clocks = new HashMap<>();

  private long openWindows;

  /**
   * A lifecycle that admits every series.
   *
   * @param openWindowsChanged told of every change of the number of open windows
   */
  public WindowLifecycle(
      final Settings settings, final WindowStore store, final LongConsumer openWindowsChanged) {
    this(settings, store, openWindowsChanged, SeriesGate.OPEN);
  }

  /**
   * @param openWindowsChanged told of every change of the number of open windows
   * @param gate asked before a series that holds no state starts to
   */
  public WindowLifecycle(
      final Settings settings,
      final WindowStore store,
      final LongConsumer openWindowsChanged,
      final SeriesGate gate) {
    final RollupPlan plan = new RollupPlan(settings.granularities());
    final WindowComputations computations = settings.computations();
    this.times = new WindowTimes(plan, settings.grace(), settings.latenessHorizon());
    this.finest = times.finest();
    this.idleTimeoutMillis = settings.idleTimeout().toMillis();
    this.buckets =
        new WindowBuckets(
            store,
            plan,
            settings.layout(),
            computations.timeWeightings(),
            computations.sketchAccuracies(),
            computations.expectedIntervals());
    this.heldReadings = new HeldReadings(store, times, buckets, settings.duplicateTimestamps());
    this.edgeRevisions = new EdgeRevisions(store, times, computations.timeWeightings(), buckets);
    this.expiry = new WindowExpiry(store, times, computations.timeWeightings());
    this.quietSeries =
        new QuietSeries(store, times, expiry, settings.idleTimeout(), settings.latenessHorizon());
    this.store = store;
    this.openWindowsChanged = openWindowsChanged;
    this.gate = gate;
  }

  /**
   * Reads what the store holds when a task starts, or starts again after its state was rolled back.
   * Restored series get a full idle timeout before the wall clock may close their windows: they may
   * simply not have been read again yet.
   */
  public void restore(final long wallClock) {
    clocks.clear();
    openWindowsChanged(-openWindows);
    for (final Granularity granularity : times.granularities()) {
      final boolean holdsReadings = granularity.equals(finest);
      store.forEach(
          granularity,
          (series, start, state) -> {
            final SeriesClock seen =
                clocks.computeIfAbsent(
                    series,
                    s -> new SeriesClock(Long.MIN_VALUE, wallClock, wallClock + idleTimeoutMillis));
            if (holdsReadings) {
              seen.clock = Math.max(seen.clock, state.stats().lastTimestamp());
            }
            if (!state.closed()) {
              openWindowsChanged(1);
            }
          });
    }
    clocks.forEach(
        (series, seen) ->
            seen.clock = Math.max(seen.clock, store.storedClock(series).orElse(Long.MIN_VALUE)));
    gate.clear();
    clocks.keySet().forEach(gate::restored);
  }

  /**
   * Adds one reading to the windows of its series, and passes every bucket it closes or re-closes
   * to {@code emit}: the re-closed windows it was late for first, then the windows its time closes.
   * A reading of a series that holds no state is first put to the {@link SeriesGate}.
   */
  public Outcome accept(
      final SeriesKey series,
      final Measurement measurement,
      final Integer utcOffsetMinutes,
      final long wallClock,
      final Consumer<ClosedBucket> emit) {
    final long timestamp = measurement.timestamp();
    final SeriesClock seen = clocks.get(series);
    final long clock = seen != null ? seen.clock : storedClock(series);
    if (times.isBeyondHorizon(timestamp, clock)) {
      return Outcome.TOO_LATE;
    }
    if (seen == null && !gate.admit(series, wallClock)) {
      return Outcome.REFUSED;
    }
    final long finestStart = finest.windowStart(timestamp);
    // A series with state has no window that starts after the window of its clock, so the first
    // reading of the next one needs no read: at live traffic, a read of a missing key for every
    // window a minute opens. Not known of a clock read from the store, a lower bound.
    final WindowState finestWindow =
        seen != null && finestStart > times.latestPossibleStart(finest, seen.clock)
            ? null
            : store.get(series, finest, finestStart);
    if (finestWindow != null) {
      final HeldReading held = heldReadings.heldAt(series, finestStart, finestWindow, timestamp);
      if (held != null) {
        final WindowState counted = countResend(series, timestamp, clock);
        final Outcome outcome =
            heldReadings.resolve(
                series, finestStart, counted, held, measurement, utcOffsetMinutes, emit);
        if (outcome == Outcome.REPLACED) {
          edgeRevisions.afterChangeAt(series, timestamp, clock, emit);
        }
        return outcome;
      }
    }
    final boolean late =
        finestWindow != null ? finestWindow.closed() : times.isClosed(finest, finestStart, clock);
    List<Granularity> reclosed = List.of();
    List<Granularity> leftToBackfill = List.of();
    final List<Granularity> granularities = times.granularities();
    // Indexed, as below: an iterator here was an allocation per reading the JIT did not remove.
    for (int g = 0; g < granularities.size(); g++) {
      final Granularity granularity = granularities.get(g);
      if (!times.receivesReadingDirectly(granularity, timestamp, clock)
          && !sourceLeftToBackfill(granularity, leftToBackfill)) {
        continue;
      }
      final long start = granularity.windowStart(timestamp);
      final WindowState before =
          granularity.equals(finest) ? finestWindow : store.get(series, granularity, start);
      if (before == null
          && !granularity.equals(finest)
          && closedReadingsHeld(series, start, granularity.windowEnd(start) - 1) > 1) {
        // Added while its span was under way: the window is backfill's (see spanUnderWay), and
        // the coarser windows it would have fed take the reading directly.
        if (leftToBackfill.isEmpty()) {
          leftToBackfill = new ArrayList<>(times.granularities().size());
        }
        leftToBackfill.add(granularity);
        continue;
      }
      final WindowState after =
          added(series, granularity, start, before, measurement, utcOffsetMinutes, clock, late);
      if (after.closed()) {
        if (reclosed.isEmpty()) {
          reclosed = new ArrayList<>(times.granularities().size());
        }
        reclosed.add(granularity);
      }
    }
    for (int g = 0; g < reclosed.size(); g++) {
      final Granularity granularity = reclosed.get(g);
      final long start = granularity.windowStart(timestamp);
      buckets.emit(series, granularity, start, store.get(series, granularity, start), emit);
    }
    if (reclosed.contains(finest) || edgeRevisions.reachesBack(series)) {
      edgeRevisions.afterChangeAt(series, timestamp, Math.max(clock, timestamp), emit);
    }
    final SeriesClock updated =
        seen != null ? seen : new SeriesClock(clock, wallClock, wallClock + idleTimeoutMillis);
    if (seen == null) {
      clocks.put(series, updated);
    }
    updated.lastReadingWallClock = wallClock;
    updated.nextIdleCheck = wallClock + idleTimeoutMillis;
    if (timestamp > clock) {
      updated.clock = timestamp;
      closeWindows(series, clock, timestamp, emit);
      if (clock == Long.MIN_VALUE
          || times.lastClosedStart(finest, clock) != times.lastClosedStart(finest, timestamp)) {
        updated.expiredAt = expiry.expire(series, updated.expiredAt, timestamp);
      }
    }
    return reclosed.isEmpty() ? Outcome.ON_TIME : Outcome.LATE_MERGED;
  }

  /** The clock of {@code series}: the event time up to which its windows are judged. */
  public long clockOf(final SeriesKey series) {
    final SeriesClock seen = clocks.get(series);
    return seen != null ? seen.clock : storedClock(series);
  }

  /** Series this task holds state of: its maps by series hold as many. */
  public int seriesWithState() {
    return clocks.size();
  }

  /** Open windows of this task, all granularities. */
  public long openWindows() {
    return openWindows;
  }

  /**
   * Counts a reading at a time its series already holds in each window that holds that time and has
   * taken its finest window's readings: the finest window, and the coarser ones its closed windows
   * were rolled up into (a window not yet rolled up gets the count with the rollup). Returns the
   * finest window, counted.
   */
  private WindowState countResend(final SeriesKey series, final long timestamp, final long clock) {
    WindowState finestCounted = null;
    for (final Granularity granularity : times.granularities()) {
      if (!times.receivesReadingDirectly(granularity, timestamp, clock)) {
        continue;
      }
      final long start = granularity.windowStart(timestamp);
      final WindowState window = store.get(series, granularity, start);
      if (window != null) {
        final WindowState counted = window.withResend();
        store.put(series, granularity, start, counted);
        if (granularity.equals(finest)) {
          finestCounted = counted;
        }
      }
    }
    return finestCounted;
  }

  /**
   * The window the reading joins ({@code before} it does: null for a new one), stored with it; a
   * new window closed at once if it is late. A reading {@code late} for its finest window counts as
   * a late reading in every window it joins, so that the coarser windows' counts stay the sum of
   * their finer windows'.
   */
  private WindowState added(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final Measurement measurement,
      final Integer utcOffsetMinutes,
      final long clock,
      final boolean late) {
    final boolean keepsReadings = granularity.equals(finest);
    WindowState after;
    if (before == null) {
      final WindowState fresh =
          keepsReadings
              ? WindowState.openWith(measurement, utcOffsetMinutes)
              : WindowState.open(BucketStats.of(measurement, utcOffsetMinutes));
      after = times.isClosed(granularity, start, clock) ? fresh.close() : fresh;
      if (!after.closed()) {
        openWindowsChanged(1);
      }
    } else {
      after =
          keepsReadings
              ? before.withReading(measurement, utcOffsetMinutes)
              : before.withSums(measurement, utcOffsetMinutes);
    }
    if (late) {
      after = after.withLateReading();
    }
    if (after.tail().size() >= TAIL_CAPACITY) {
      store.putSealedRun(series, start, after.sealedRuns(), after.tail());
      after = after.tailSealed();
    }
    if (before == null) {
      store.putNew(series, granularity, start, after); // a read found none, or none can be
    } else {
      store.put(series, granularity, start, after);
    }
    return after;
  }

  /** Whether the windows {@code granularity} is rolled up from were just left to backfill. */
  private boolean sourceLeftToBackfill(
      final Granularity granularity, final List<Granularity> leftToBackfill) {
    // Checked for every reading: the steady state, where none is, allocates nothing.
    return !leftToBackfill.isEmpty()
        && times.sourceOf(granularity).filter(leftToBackfill::contains).isPresent();
  }

  /**
   * How many readings the closed finest windows of {@code series} starting in {@code [from, to]}
   * hold: readings a coarser window of that span has counted, or would have, had it existed. Open
   * ones have reached no coarser window yet. Windows of every granularity that can still change
   * have their finest windows held.
   */
  private long closedReadingsHeld(final SeriesKey series, final long from, final long to) {
    long held = 0;
    if (to >= from) {
      for (final WindowReader.Window window : store.range(series, finest, from, to)) {
        if (window.state().closed()) {
          held += window.state().stats().count();
        }
      }
    }
    return held;
  }

  /**
   * Closes the windows of {@code series} that the clock's move from {@code before} to {@code after}
   * closes, finest granularity first. Returns the latest {@code end + grace} among the windows it
   * closed. Only a move across a window boundary can close anything, so most readings return at
   * once.
   */
  private long closeWindows(
      final SeriesKey series,
      final long before,
      final long after,
      final Consumer<ClosedBucket> emit) {
    long latestClose = Long.MIN_VALUE;
    final List<Granularity> granularities = times.granularities();
    for (int g = 0; g < granularities.size(); g++) {
      final Granularity granularity = granularities.get(g);
      final long from = times.lastClosedStart(granularity, before);
      final long upTo = times.lastClosedStart(granularity, after);
      if (from >= upTo) {
        continue;
      }
      for (final WindowReader.Window window :
          store.startingAfter(series, granularity, from, upTo)) {
        if (window.state().closed()) {
          continue; // created late, in a window that had already closed, and emitted then
        }
        final WindowState closed = window.state().close();
        store.put(series, granularity, window.start(), closed);
        openWindowsChanged(-1);
        for (final Granularity coarser : times.rolledUpFrom(granularity)) {
          rollUp(series, coarser, granularity, window.start(), closed);
        }
        buckets.emit(series, granularity, window.start(), closed, emit);
        latestClose = Math.max(latestClose, times.closesAt(granularity, window.start()));
      }
    }
    return latestClose;
  }

  private void rollUp(
      final SeriesKey series,
      final Granularity coarser,
      final Granularity finer,
      final long finerStart,
      final WindowState finerWindow) {
    final long start = coarser.windowStart(finerStart);
    final WindowState before = store.get(series, coarser, start);
    if (before != null) {
      store.put(series, coarser, start, before.merge(finerWindow.stats(), finerWindow.quality()));
      return;
    }
    if (spanUnderWay(series, start, finerStart)) {
      for (final Granularity further : times.rolledUpFrom(coarser)) {
        rollUp(series, further, finer, finerStart, finerWindow);
      }
      return;
    }
    openWindowsChanged(1);
    store.putNew(
        series, coarser, start, WindowState.open(finerWindow.stats(), finerWindow.quality()));
  }

  /**
   * Whether a rolled-up window that does not exist started before the finer window now closing into
   * it: its span held readings already. A coarser window opens with the first finer window that
   * closes into it, so in the steady state none of its span's readings came before; this happens
   * only to a granularity added to a running deployment, in the window that spans the restart. The
   * stream does not write that window: what it holds of the span (readings may have expired, and
   * the coarser windows above it already counted those before the restart) cannot make it whole,
   * and a partial document would read as a whole one. {@code bucketer backfill} builds it from the
   * finer documents instead, and the finer windows it would have held go straight on to the windows
   * above it, so those count every reading.
   */
  private boolean spanUnderWay(final SeriesKey series, final long start, final long finerStart) {
    return closedReadingsHeld(series, start, finerStart - 1) > 0;
  }

  /**
   * Closes the windows of quiet series whose {@code end + grace} has passed on the wall clock, and
   * forgets series silent for a whole horizon; passes the buckets it closes to {@code emit}.
   */
  public void closeIdleSeries(final long wallClock, final Consumer<ClosedBucket> emit) {
    final Iterator<Map.Entry<SeriesKey, SeriesClock>> entries = clocks.entrySet().iterator();
    while (entries.hasNext()) {
      final Map.Entry<SeriesKey, SeriesClock> entry = entries.next();
      final SeriesClock seen = entry.getValue();
      if (wallClock < seen.nextIdleCheck) {
        continue;
      }
      final SeriesKey series = entry.getKey();
      if (wallClock > seen.clock) {
        final long latestClose = closeWindows(series, seen.clock, wallClock, emit);
        if (latestClose > seen.clock) {
          // Closed windows must never reopen: move the clock just far enough to cover them. No
          // reading holds this time, so it is stored.
          quietSeries.moveClock(series, seen, latestClose);
        }
      }
      quietSeries.forgetIfSilent(series, seen, wallClock);
      if (!quietSeries.scheduleNextCheck(series, seen, wallClock)) {
        entries.remove();
        gate.released(series);
      }
    }
  }

  private long storedClock(final SeriesKey series) {
    return store.storedClock(series).orElse(Long.MIN_VALUE);
  }

  private void openWindowsChanged(final long delta) {
    if (delta != 0) {
      openWindows += delta;
      openWindowsChanged.accept(delta);
    }
  }
}
