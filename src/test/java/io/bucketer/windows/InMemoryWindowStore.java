package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/** A {@link WindowStore} in sorted maps, for testing the lifecycle without Kafka. */
final class InMemoryWindowStore implements WindowStore {

  /** Deletions of windows that began at a series' first key, as a restarted task's first does. */
  int deletionsFromTheStart;

  private final Map<SeriesKey, Map<Granularity, NavigableMap<Long, WindowState>>> windows =
      new HashMap<>();
  private final Map<SeriesKey, NavigableMap<Long, NavigableMap<Integer, ReadingRun>>> sealed =
      new HashMap<>();
  private final Map<SeriesKey, Long> clocks = new HashMap<>();
  int puts;
  int gets;
  int ranges;
  int sealedRunReads;

  /**
   * Whether {@link #logChange} only logs, as the task's store does, and {@link #keep} writes: else
   * both write, as a store without a log.
   */
  private final boolean defersKeeps;

  /** Changes logged, with the deferring store: the log, counted. */
  int logged;

  /** One change logged: the window as the log had it ({@code null} when not known), and after. */
  record LoggedChange(WindowState before, WindowState after) {}

  /** The changes logged, with the deferring store, in order. */
  final List<LoggedChange> changes = new ArrayList<>();

  /** Deletions of windows the store held. */
  int windowsDeleted;

  InMemoryWindowStore() {
    this(false);
  }

  /**
   * @param defersKeeps whether {@link #logChange} only logs, as the task's store does, and {@link
   *     #keep} writes
   */
  InMemoryWindowStore(final boolean defersKeeps) {
    this.defersKeeps = defersKeeps;
  }

  /** One change handed over as readings appended ({@link #logAppended}), as it was told. */
  record AppendedChange(List<Measurement> readings, boolean closes, Integer utcOffsetMinutes) {}

  /** The changes handed over as readings appended, in order; each is in {@link #changes} too. */
  final List<AppendedChange> appended = new ArrayList<>();

  @Override
  public void logAppended(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final AppendedReadings change) {
    final List<Measurement> readings = new ArrayList<>();
    for (int i = change.from(); i < change.readings().size(); i++) {
      readings.add(new Measurement(change.readings().timestamp(i), change.readings().value(i)));
    }
    assertThat(readings).hasSize(change.count());
    appended.add(new AppendedChange(readings, change.closes(), change.utcOffsetMinutes()));
    WindowStore.super.logAppended(series, granularity, start, change);
  }

  /** Windows logged as new to the store ({@link #logNew}), without a lookup. */
  int loggedNew;

  @Override
  public void logNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    assertThat(get(series, granularity, start)).as("a window logged as new to the store").isNull();
    loggedNew++;
    logChange(series, granularity, start, null, state);
  }

  @Override
  public void logChange(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final WindowState state) {
    if (defersKeeps) {
      logged++;
      changes.add(new LoggedChange(before, state));
    } else {
      put(series, granularity, start, state);
    }
  }

  @Override
  public void keep(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    if (defersKeeps) {
      put(series, granularity, start, state);
    }
  }

  private NavigableMap<Long, WindowState> of(final SeriesKey series, final Granularity g) {
    return windows
        .computeIfAbsent(series, s -> new HashMap<>())
        .computeIfAbsent(g, x -> new TreeMap<>());
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    gets++;
    return of(series, granularity).get(start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    ranges++;
    final List<Window> found = new ArrayList<>();
    if (first <= last) {
      of(series, granularity)
          .subMap(first, true, last, true)
          .forEach((start, state) -> found.add(new Window(start, state)));
    }
    return found;
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    final NavigableMap<Long, WindowState> all = of(series, granularity);
    return all.isEmpty() ? OptionalLong.empty() : OptionalLong.of(all.lastKey());
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    sealedRunReads++;
    final List<SealedRun> found = new ArrayList<>();
    sealed
        .getOrDefault(series, new TreeMap<>())
        .subMap(firstStart, true, lastStart, true)
        .forEach(
            (start, runs) ->
                runs.forEach((number, run) -> found.add(new SealedRun(start, number, run))));
    return found;
  }

  @Override
  public void put(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    puts++;
    of(series, granularity).put(start, state);
  }

  @Override
  public void deleteBetween(
      final SeriesKey series, final Granularity granularity, final long from, final long upTo) {
    if (from == Long.MIN_VALUE) {
      deletionsFromTheStart++;
    }
    if (from <= upTo) {
      final Map<Long, WindowState> doomed = of(series, granularity).subMap(from, true, upTo, true);
      windowsDeleted += doomed.size();
      doomed.clear();
    }
  }

  @Override
  public void putSealedRun(
      final SeriesKey series, final long windowStart, final int number, final ReadingRun run) {
    puts++;
    sealed
        .computeIfAbsent(series, s -> new TreeMap<>())
        .computeIfAbsent(windowStart, w -> new TreeMap<>())
        .put(number, run);
  }

  @Override
  public void deleteSealedRunsBetween(final SeriesKey series, final long from, final long upTo) {
    if (from <= upTo) {
      sealed.getOrDefault(series, new TreeMap<>()).subMap(from, true, upTo, true).clear();
    }
  }

  @Override
  public OptionalLong storedClock(final SeriesKey series) {
    final Long clock = clocks.get(series);
    return clock == null ? OptionalLong.empty() : OptionalLong.of(clock);
  }

  @Override
  public void storeClock(final SeriesKey series, final long clock) {
    puts++;
    clocks.put(series, clock);
  }

  @Override
  public void forEach(final Granularity granularity, final WindowVisitor visitor) {
    windows.forEach(
        (series, byGranularity) ->
            byGranularity
                .getOrDefault(granularity, new TreeMap<>())
                .forEach((start, state) -> visitor.visit(series, start, state)));
  }

  /** Windows and sealed runs held, all series. */
  int entries() {
    int count = 0;
    for (final var byGranularity : windows.values()) {
      for (final var all : byGranularity.values()) {
        count += all.size();
      }
    }
    for (final var byWindow : sealed.values()) {
      for (final var runs : byWindow.values()) {
        count += runs.size();
      }
    }
    return count;
  }

  int sealedRunsOf(final SeriesKey series) {
    return sealedRuns(series, Long.MIN_VALUE, Long.MAX_VALUE).size();
  }
}
