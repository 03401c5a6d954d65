package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The windows one task holds in memory ({@link WriteBehindWindows}), as its last commit left them,
 * for readers on other threads: the queries. The store keeps a window only once it leaves memory
 * (it closes), so a query reads the open windows here and the rest from the store.
 *
 * <p>Written by the task's stream thread just before each commit, a series at a time: its windows
 * in memory as one immutable list, replaced whole when a window joins or leaves it. Each window
 * gives its state as the last commit had it ({@link Published#state}): the window keeps those
 * values apart at its first change after a commit, in place under its own lock rather than as a new
 * object, so that at live traffic nothing is left behind that lives until the series' next reading.
 * A window leaves only after the store keeps it: a reader that reads here first and the store
 * second ({@link #over}) finds every window in one or the other.
 */
public final class PublishedWindows {

  /** One published window. */
  interface Published {
    Granularity granularity();

    long start();

    /** The window as the last commit had it; safe to call from any thread. */
    WindowState state();
  }

  private final Map<SeriesKey, List<Published>> bySeries = new ConcurrentHashMap<>();

  /** The tasks' published windows in one process, by the partition of each task's state. */
  public static final class Directory {

    private final Map<Integer, PublishedWindows> byPartition = new ConcurrentHashMap<>();

    /** Publishes {@code windows} as the windows of the task of {@code partition}. */
    public void register(final int partition, final PublishedWindows windows) {
      byPartition.put(partition, windows);
    }

    /** Withdraws {@code windows}, when they are still the ones of {@code partition}. */
    public void unregister(final int partition, final PublishedWindows windows) {
      byPartition.remove(partition, windows);
    }

    /**
     * The published windows of the task of {@code partition}, {@code null} when it runs nowhere
     * here.
     */
    public PublishedWindows of(final int partition) {
      return byPartition.get(partition);
    }
  }

  /**
   * Publishes the windows of {@code series} held in memory, replacing what was published of it;
   * none withdraws the series. Takes {@code windows}: the caller never changes the list again.
   */
  void publish(final SeriesKey series, final List<Published> windows) {
    if (windows.isEmpty()) {
      bySeries.remove(series);
    } else {
      bySeries.put(series, windows);
    }
  }

  /** Withdraws every window: the task rolled its state back, or closed. */
  void clear() {
    bySeries.clear();
  }

  /**
   * {@code stored}, the task's store, with these windows over it: a published window is newer than
   * the stored one. These are read first, then the store, so that a window that leaves them between
   * the two reads is found in the store, where it went first.
   */
  public WindowReader over(final WindowReader stored) {
    return new Overlay(stored);
  }

  private final class Overlay implements WindowReader {

    private final WindowReader stored;

    Overlay(final WindowReader stored) {
      this.stored = stored;
    }

    @Override
    public WindowState get(
        final SeriesKey series, final Granularity granularity, final long start) {
      for (final Published window : bySeries.getOrDefault(series, List.of())) {
        if (window.start() == start && window.granularity().equals(granularity)) {
          return window.state();
        }
      }
      return stored.get(series, granularity, start);
    }

    @Override
    public List<Window> range(
        final SeriesKey series, final Granularity granularity, final long first, final long last) {
      final List<Window> newer = new ArrayList<>();
      for (final Published window : bySeries.getOrDefault(series, List.of())) {
        if (window.granularity().equals(granularity)
            && window.start() >= first
            && window.start() <= last) {
          newer.add(new Window(window.start(), window.state()));
        }
      }
      newer.sort(Comparator.comparingLong(Window::start)); // in the order the windows opened
      return overlaid(stored.range(series, granularity, first, last), newer);
    }

    @Override
    public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
      final List<Published> published = bySeries.getOrDefault(series, List.of());
      final OptionalLong latestStored = stored.latestStart(series, granularity);
      long latest = latestStored.orElse(Long.MIN_VALUE);
      boolean found = latestStored.isPresent();
      for (final Published window : published) {
        if (window.granularity().equals(granularity) && (!found || window.start() > latest)) {
          latest = window.start();
          found = true;
        }
      }
      return found ? OptionalLong.of(latest) : OptionalLong.empty();
    }

    @Override
    public List<SealedRun> sealedRuns(
        final SeriesKey series, final long firstStart, final long lastStart) {
      return stored.sealedRuns(series, firstStart, lastStart);
    }
  }

  /**
   * The windows of {@code stored} and {@code newer}, each in start order, in start order: a window
   * of {@code newer} in place of a stored one with the same start.
   */
  static List<WindowReader.Window> overlaid(
      final List<WindowReader.Window> stored, final List<WindowReader.Window> newer) {
    if (newer.isEmpty()) {
      return stored;
    }
    final List<WindowReader.Window> merged = new ArrayList<>(stored.size() + newer.size());
    int next = 0;
    for (final WindowReader.Window window : stored) {
      while (next < newer.size() && newer.get(next).start() < window.start()) {
        merged.add(newer.get(next++));
      }
      if (next < newer.size() && newer.get(next).start() == window.start()) {
        merged.add(newer.get(next++));
      } else {
        merged.add(window);
      }
    }
    while (next < newer.size()) {
      merged.add(newer.get(next++));
    }
    return merged;
  }
}
