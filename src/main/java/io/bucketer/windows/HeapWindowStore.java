package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A task's local stores as maps on the heap, without a log: what it is told to keep (closed
 * windows, runs, clocks) it holds, and the changes it is told to log it counts, not encodes. For
 * measuring the window lifecycle and its cache alone, without RocksDB, the log or Kafka ({@code
 * bench lifecycle}), and for tests. Confined to one thread.
 */
public class HeapWindowStore implements WindowStore {

  private final Map<SeriesKey, Map<Granularity, NavigableMap<Long, WindowState>>> windows =
      new HashMap<>();
  private final Map<SeriesKey, NavigableMap<Long, Map<Integer, ReadingRun>>> runs = new HashMap<>();
  private final Map<SeriesKey, Long> clocks = new HashMap<>();
  private long changesLogged;

  /** Changes handed to the log: a window's new readings, or its state. */
  public long changesLogged() {
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
    final List<Window> found = new ArrayList<>();
    if (held == null || first > last) {
      return found;
    }
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
    final List<SealedRun> found = new ArrayList<>();
    if (held == null || firstStart > lastStart) {
      return found;
    }
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
        .computeIfAbsent(windowStart, s -> new TreeMap<>())
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

  /** Windows and sealed runs held, all series. */
  public int entries() {
    int count = 0;
    for (final Map<Granularity, NavigableMap<Long, WindowState>> byGranularity : windows.values()) {
      for (final NavigableMap<Long, WindowState> held : byGranularity.values()) {
        count += held.size();
      }
    }
    for (final NavigableMap<Long, Map<Integer, ReadingRun>> byWindow : runs.values()) {
      for (final Map<Integer, ReadingRun> numbered : byWindow.values()) {
        count += numbered.size();
      }
    }
    return count;
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
