package io.bucketer.bench;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.windows.AppendedReadings;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import io.bucketer.windows.WindowStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The task's local stores as maps on the heap, for {@link LifecycleBench}: what the window cache
 * keeps (closed windows, runs, clocks) is held, and what it logs is counted, not encoded. So the
 * bench measures the window lifecycle and its cache alone, without RocksDB, the log's encoding or
 * Kafka. Confined to one thread.
 */
final class HeapWindowStore implements WindowStore {

  private final Map<SeriesKey, Map<Granularity, NavigableMap<Long, WindowState>>> windows =
      new HashMap<>();
  private final Map<SeriesKey, NavigableMap<Long, Map<Integer, ReadingRun>>> runs = new HashMap<>();
  private final Map<SeriesKey, Long> clocks = new HashMap<>();
  private long changesLogged;

  /** Changes the cache handed to the log: a window's new readings, or its state. */
  long changesLogged() {
    return changesLogged;
  }

  @Override
  public void logChange(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final WindowState state) {
    changesLogged++;
  }

  @Override
  public void logNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    changesLogged++;
  }

  @Override
  public void logAppended(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final AppendedReadings appended) {
    changesLogged++;
  }

  @Override
  public void keep(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    put(series, granularity, start, state);
  }

  @Override
  public void put(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    windowsOf(series, granularity).put(start, state);
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    final NavigableMap<Long, WindowState> held = heldWindows(series, granularity);
    return held == null ? null : held.get(start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    final NavigableMap<Long, WindowState> held = heldWindows(series, granularity);
    if (held == null || first > last) {
      return List.of();
    }
    final List<Window> found = new ArrayList<>();
    held.subMap(first, true, last, true)
        .forEach((start, state) -> found.add(new Window(start, state)));
    return found;
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    final NavigableMap<Long, WindowState> held = heldWindows(series, granularity);
    return held == null || held.isEmpty() ? OptionalLong.empty() : OptionalLong.of(held.lastKey());
  }

  @Override
  public void deleteBetween(
      final SeriesKey series, final Granularity granularity, final long from, final long upTo) {
    final NavigableMap<Long, WindowState> held = heldWindows(series, granularity);
    if (held != null && from <= upTo) {
      held.subMap(from, true, upTo, true).clear();
    }
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    final NavigableMap<Long, Map<Integer, ReadingRun>> held = runs.get(series);
    if (held == null || firstStart > lastStart) {
      return List.of();
    }
    final List<SealedRun> found = new ArrayList<>();
    held.subMap(firstStart, true, lastStart, true)
        .forEach(
            (start, numbered) ->
                numbered.forEach((number, run) -> found.add(new SealedRun(start, number, run))));
    return found;
  }

  @Override
  public void putSealedRun(
      final SeriesKey series, final long windowStart, final int number, final ReadingRun readings) {
    runs.computeIfAbsent(series, s -> new TreeMap<>())
        .computeIfAbsent(windowStart, s -> new HashMap<>())
        .put(number, readings);
  }

  @Override
  public void deleteSealedRunsBetween(final SeriesKey series, final long from, final long upTo) {
    final NavigableMap<Long, Map<Integer, ReadingRun>> held = runs.get(series);
    if (held != null && from <= upTo) {
      held.subMap(from, true, upTo, true).clear();
    }
  }

  @Override
  public OptionalLong storedClock(final SeriesKey series) {
    final Long clock = clocks.get(series);
    return clock == null ? OptionalLong.empty() : OptionalLong.of(clock);
  }

  @Override
  public void storeClock(final SeriesKey series, final long clock) {
    clocks.put(series, clock);
  }

  @Override
  public void forEach(final Granularity granularity, final WindowVisitor visitor) {
    windows.forEach(
        (series, byGranularity) -> {
          final NavigableMap<Long, WindowState> held = byGranularity.get(granularity);
          if (held != null) {
            held.forEach((start, state) -> visitor.visit(series, start, state));
          }
        });
  }

  private NavigableMap<Long, WindowState> heldWindows(
      final SeriesKey series, final Granularity granularity) {
    final Map<Granularity, NavigableMap<Long, WindowState>> held = windows.get(series);
    return held == null ? null : held.get(granularity);
  }

  private NavigableMap<Long, WindowState> windowsOf(
      final SeriesKey series, final Granularity granularity) {
    return windows
        .computeIfAbsent(series, s -> new HashMap<>())
        .computeIfAbsent(granularity, g -> new TreeMap<>());
  }
}
