package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link WindowStore} on the heap ({@link HeapWindowStore}) for testing the lifecycle without
 * Kafka: it counts each kind of access and, deferring keeps, records every change logged.
 */
final class InMemoryWindowStore extends HeapWindowStore {

  /** Deletions of windows that began at a series' first key, as a restarted task's first does. */
  int deletionsFromTheStart;

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
    // what the interface's default does: the change as its two states
    logChange(series, granularity, start, change.before(), change.after());
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

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    gets++;
    return super.get(series, granularity, start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    ranges++;
    return super.range(series, granularity, first, last);
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    sealedRunReads++;
    return super.sealedRuns(series, firstStart, lastStart);
  }

  @Override
  public void put(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    puts++;
    super.put(series, granularity, start, state);
  }

  /** Windows put as new ({@link #putNew}): each checked to be missing from the store. */
  int newPuts;

  @Override
  public void putNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    assertThat(super.get(series, granularity, start))
        .as("a window put as new to the store")
        .isNull();
    newPuts++;
    put(series, granularity, start, state);
  }

  @Override
  public void deleteBetween(
      final SeriesKey series, final Granularity granularity, final long from, final long upTo) {
    if (from == Long.MIN_VALUE) {
      deletionsFromTheStart++;
    }
    windowsDeleted += super.range(series, granularity, from, upTo).size();
    super.deleteBetween(series, granularity, from, upTo);
  }

  @Override
  public void putSealedRun(
      final SeriesKey series, final long windowStart, final int number, final ReadingRun run) {
    puts++;
    super.putSealedRun(series, windowStart, number, run);
  }

  @Override
  public void storeClock(final SeriesKey series, final long clock) {
    puts++;
    super.storeClock(series, clock);
  }

  int sealedRunsOf(final SeriesKey series) {
    return sealedRuns(series, Long.MIN_VALUE, Long.MAX_VALUE).size();
  }
}
