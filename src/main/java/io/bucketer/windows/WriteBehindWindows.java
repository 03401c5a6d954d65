package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The windows of one task's series, kept as objects in front of the task's {@link WindowStore}: a
 * reading updates its window in memory, and the store receives each changed window's change once,
 * when its host calls {@link #writeChanges} before a commit. Before, every reading decoded its
 * window from the store and encoded it back: on a backlog about 50 times per window between two
 * commits, and a quarter of the stream thread's time.
 *
 * <p><b>Logged once per commit, kept once.</b> Each commit makes every changed window's change
 * durable ({@link WindowStore#logChange}); the window itself reaches the store's local copy, where
 * reads by key find it, once: when it closes and leaves memory, and for every window still here
 * when the task closes ({@link #keepAll}). At live traffic a commit holds a reading of each series,
 * so writing every changed window whole at every commit cost the store a put per reading.
 *
 * <p><b>Logged as it changes, or at the commit.</b> A window that took one change between the last
 * two commits it changed in (a live sensor's window: one reading a commit) has its next changes
 * logged as they are made, while its values are still in the processor's caches; the commit then
 * does not touch it. Logged at the commit, it was read again a commit later, after the next ten
 * thousand series' readings had pushed it out of them: the commit's pass over the changed windows
 * was a fifth of the stream thread at 100,000 live sensors. A window that takes several changes
 * between commits (a backlog) is logged once, at the commit, as one change. Either way the log
 * receives what the commit covers before Kafka Streams commits it, and a rolled-back task forgets
 * it with the log's pending changes ({@link #discard}).
 *
 * <p><b>Published as the last commit had it.</b> Until a window is kept, readers on other threads
 * (queries) find it in {@link #published}, as the last commit had it: at its first change after a
 * commit, the window keeps its values as of that commit apart, and a commit makes every window's
 * current values the published ones by counting itself ({@link CommitCount}), without touching
 * them.
 *
 * <p><b>What stays cached.</b> Open windows, as many as the memory budget allows, which every task
 * of the process shares. A window is charged its largest size when it enters (a finest window's
 * readings are sealed off at {@link WindowLifecycle#TAIL_CAPACITY}), so the budget holds however
 * the windows grow. When the budget is spent, a window that does not fit is written to the store at
 * once and read back from it, as every window was before this cache; the windows already cached
 * stay. Not least-recently-used eviction: at 1 Hz every series is touched once a second in turn,
 * and LRU over a cycle longer than the cache misses every time. Closed windows are dropped once
 * kept, which makes room: only a late reading reads one again.
 *
 * <p><b>Reads across windows</b> (a range, the latest window) merge the store's answer with the
 * cached windows; a visit of every window, when a task starts, writes and keeps all changes first.
 * Runs of readings sealed off a window and the stored clocks go to the store at once: they are
 * written once each.
 *
 * <p>Confined to the task's stream thread, like the store it fronts; {@link #published} is read
 * from any thread.
 */
public final class WriteBehindWindows implements WindowStore {

  /**
   * What a cached window costs besides its readings: itself, its current and logged values (128
   * bytes each), and its share of the series' list and map entry.
   */
  private static final long WINDOW_OVERHEAD_BYTES = 320;

  private final WindowStore store;
  private final Granularity finest;
  private final WindowCacheBudget budget;

  /**
   * A window of the finest granularity at its largest: its tail's arrays full, 4 bytes a timestamp
   * (8 in a window longer than 24 days, {@link ReadingRun}) and 8 a value.
   */
  private final long readingsWindowBytes;

  private final Map<SeriesKey, CachedSeries> cached = new HashMap<>(1_024);

  private final PublishedWindows published = new PublishedWindows();

  /** Series with windows changed since the last {@link #writeChanges}. */
  private final List<CachedSeries> changed = new ArrayList<>();

  /** The change of the window being logged, when it is readings appended: set for each. */
  private final AppendedReadings appended = new AppendedReadings();

  /** A window's values before its change, when that change is logged as it is made: for each. */
  private final WindowValues previous = new WindowValues();

  private final CommitCount commits = new CommitCount();

  /** Bytes of the budget this task's cache holds. */
  private long heldBytes;

  /**
   * @param finest the granularity whose windows hold readings; the others hold sums only
   */
  public WriteBehindWindows(
      final WindowStore store, final Granularity finest, final WindowCacheBudget budget) {
    this.store = store;
    this.finest = finest;
    this.budget = budget;
    this.readingsWindowBytes =
        WINDOW_OVERHEAD_BYTES
            + (long) (ReadingRun.timestampBytes(finest.sizeMillis()) + Double.BYTES)
                * WindowLifecycle.TAIL_CAPACITY;
  }

  /** How many times the changes were written: each time, one commit's. Read from any thread. */
  private static final class CommitCount {
    volatile long value;
  }

  /**
   * One window in the cache, as values written over in place ({@link WindowValues}): a reading's
   * state is copied in, not held, and what a commit publishes is kept apart only while the window
   * changes after it.
   */
  private static final class CachedWindow implements PublishedWindows.Published {
    final Granularity granularity;
    final long start;
    final long bytes;
    private final CommitCount commits;

    /** The window as the last reading left it. */
    final WindowValues current = new WindowValues();

    /**
     * The window as the last commit had it, taken at its first change since: valid while {@link
     * #committedAt} is the count of commits (before that commit, {@link #current} is it). Written
     * and read by other threads under this window's lock.
     */
    private final WindowValues committed = new WindowValues();

    /** The count of commits when {@link #committed} was taken; -1 before any. */
    private long committedAt = -1;

    /**
     * Whether the log has had this window: from its first change logged, or read from the store.
     */
    boolean logKnown;

    /**
     * Whether the store held no such window when this one entered the cache ({@link #putNew}): its
     * first change is then logged as new without asking the store, which at live traffic would be a
     * RocksDB read of a missing key for every window a minute opens (5 % of the stream thread at
     * 100,000 sensors).
     */
    boolean newToStore;

    /** Whether the store's local copy, which reads by key find, is what the log has. */
    boolean kept;

    /** Whether {@link #current} holds changes the log does not have yet: the commit logs them. */
    boolean unlogged;

    /**
     * Whether each change since the last commit is logged as it is made rather than at the commit:
     * chosen at the first change after a commit, from the changes the window took before.
     */
    boolean logsEachChange;

    /** Changes since the last commit, or in the last span between commits that had any. */
    int changes;

    /** Whether the series' published list holds this window. */
    boolean listed;

    CachedWindow(
        final Granularity granularity,
        final long start,
        final long bytes,
        final CommitCount commits) {
      this.granularity = granularity;
      this.start = start;
      this.bytes = bytes;
      this.commits = commits;
    }

    /**
     * Readies the window for a change of {@link #current}: at the first since the last commit,
     * keeps the window as that commit had it for readers, and chooses how the changes since are
     * logged. Returns whether it is the first.
     */
    boolean beforeChange() {
      final long commitsSoFar = commits.value;
      if (committedAt == commitsSoFar) {
        changes++;
        return false;
      }
      synchronized (this) {
        committed.set(current);
        committedAt = commitsSoFar;
      }
      // One change between two commits, as at live traffic: logged as it is made, while its
      // window is still in the processor's caches. Several (a backlog): logged once, at the commit.
      logsEachChange = logKnown && changes == 1;
      changes = 1;
      return true;
    }

    /** The window as the store has it: logged, kept, and the published state. */
    void readFromStore(final WindowState state) {
      synchronized (this) {
        current.set(state);
        committedAt = -1;
      }
      logKnown = true;
      kept = true;
      unlogged = false;
    }

    /** A new window's first state: nothing committed to keep apart, nothing logged yet. */
    void firstChange() {
      committedAt = commits.value;
      changes = 1;
      unlogged = true;
    }

    /** The log's state of the window; {@link #logKnown} must be true. */
    WindowState loggedState() {
      return unlogged ? committed.state() : current.state();
    }

    /** Whether queries read this window here: its log is known, and the store does not keep it. */
    boolean publishable() {
      return logKnown && !kept;
    }

    @Override
    public Granularity granularity() {
      return granularity;
    }

    @Override
    public long start() {
      return start;
    }

    /** The window as the last commit had it, for any thread. */
    @Override
    public synchronized WindowState state() {
      return committedAt == commits.value ? committed.state() : current.state();
    }
  }

  /** The cached windows of one series: a few at a time, so a list. */
  private static final class CachedSeries {
    final SeriesKey series;
    final List<CachedWindow> windows = new ArrayList<>(4);
    boolean listedAsChanged;

    /** Whether a window left {@link #windows} that the published list still holds. */
    boolean listedWindowLeft;

    CachedSeries(final SeriesKey series) {
      this.series = series;
    }

    CachedWindow find(final Granularity granularity, final long start) {
      for (int i = 0; i < windows.size(); i++) {
        final CachedWindow window = windows.get(i);
        if (window.start == start
            && (window.granularity == granularity || window.granularity.equals(granularity))) {
          return window;
        }
      }
      return null;
    }
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    final CachedSeries cachedSeries = cached.get(series);
    final CachedWindow window = cachedSeries == null ? null : cachedSeries.find(granularity, start);
    if (window != null) {
      return window.current.state();
    }
    final WindowState stored = store.get(series, granularity, start);
    if (stored != null && !stored.closed()) {
      cache(series, granularity, start, stored, false, false);
    }
    return stored;
  }

  @Override
  public void put(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    cache(series, granularity, start, state, true, false);
  }

  @Override
  public void putNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    cache(series, granularity, start, state, true, true);
  }

  private void cache(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state,
      final boolean changed,
      final boolean newToStore) {
    // Kept short, its rare paths apart: it runs for every window a reading changes, and the JIT
    // inlines a hot method only up to a size.
    final CachedSeries cachedSeries = cached.get(series);
    final CachedWindow window = cachedSeries == null ? null : cachedSeries.find(granularity, start);
    if (window == null) {
      cacheNew(cachedSeries, series, granularity, start, state, changed, newToStore);
    } else if (!changed) {
      window.readFromStore(state);
    } else {
      final boolean first = window.beforeChange();
      if (window.logsEachChange) {
        changeLoggedAsMade(cachedSeries, window, state, first);
      } else {
        window.current.set(state);
        window.unlogged = true;
        listAsChanged(cachedSeries);
      }
    }
  }

  /** Caches a window the cache does not hold, when the budget has room for it. */
  private void cacheNew(
      final CachedSeries known,
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state,
      final boolean changed,
      final boolean newToStore) {
    final long bytes = granularity.equals(finest) ? readingsWindowBytes : WINDOW_OVERHEAD_BYTES;
    if (!budget.tryTake(bytes)) {
      // no room: written through
      if (newToStore) {
        store.putNew(series, granularity, start, state);
      } else if (changed) {
        store.put(series, granularity, start, state);
      }
      return;
    }
    heldBytes += bytes;
    CachedSeries cachedSeries = known;
    if (cachedSeries == null) {
      cachedSeries = new CachedSeries(series);
      cached.put(series, cachedSeries);
    }
    final CachedWindow window = new CachedWindow(granularity, start, bytes, commits);
    window.newToStore = newToStore;
    cachedSeries.windows.add(window);
    if (changed) {
      window.current.set(state);
      window.firstChange();
      listAsChanged(cachedSeries);
    } else {
      window.readFromStore(state);
    }
  }

  /** Changes {@code window} to {@code state} and logs the change at once. */
  private void changeLoggedAsMade(
      final CachedSeries cachedSeries,
      final CachedWindow window,
      final WindowState state,
      final boolean first) {
    final WindowValues before = first ? window.committed : previous;
    if (!first) {
      previous.set(window.current);
    }
    window.current.set(state);
    logChange(cachedSeries.series, window, before);
    if (window.current.closed() || window.listed != window.publishable()) {
      listAsChanged(cachedSeries); // to leave the cache, or join the published list, at the commit
    }
  }

  private void listAsChanged(final CachedSeries cachedSeries) {
    if (!cachedSeries.listedAsChanged) {
      cachedSeries.listedAsChanged = true;
      changed.add(cachedSeries);
    }
  }

  /**
   * Logs the change of every changed window in the store; Kafka Streams then commits them with the
   * offsets of the readings they hold. Closed windows are kept in the store and leave the cache;
   * the windows logged are published.
   */
  public void writeChanges() {
    for (final CachedSeries cachedSeries : changed) {
      cachedSeries.listedAsChanged = false;
      logChanges(cachedSeries);
      final Iterator<CachedWindow> windows = cachedSeries.windows.iterator();
      while (windows.hasNext()) {
        final CachedWindow window = windows.next();
        if (window.current.closed()) {
          keep(cachedSeries.series, window, false);
          release(cachedSeries, window);
          windows.remove();
        }
      }
      publish(cachedSeries);
      if (cachedSeries.windows.isEmpty()) {
        // only this entry: the series may have been deleted and cached again since it changed
        cached.remove(cachedSeries.series, cachedSeries);
      }
    }
    changed.clear();
    commits.value = commits.value + 1; // only this thread writes it
  }

  /**
   * Keeps in the store every cached window as the last commit had it: the task closes, and its
   * store's local copy must then be what the log says. Changes since are left out: they were never
   * committed.
   */
  public void keepAll() {
    for (final CachedSeries cachedSeries : cached.values()) {
      for (final CachedWindow window : cachedSeries.windows) {
        keep(cachedSeries.series, window, true);
      }
    }
  }

  /**
   * Forgets every cached window without writing it: the task's state was rolled back, or the task
   * closed after its last commit.
   */
  public void discard() {
    cached.clear();
    changed.clear();
    published.clear();
    budget.release(heldBytes);
    heldBytes = 0;
  }

  /** The windows the last commit logged and the store does not keep yet, for other threads. */
  public PublishedWindows published() {
    return published;
  }

  private void logChanges(final CachedSeries cachedSeries) {
    for (final CachedWindow window : cachedSeries.windows) {
      if (window.unlogged) {
        logChange(cachedSeries.series, window, window.committed);
        window.unlogged = false;
      }
    }
  }

  /**
   * Logs {@code window}'s change from {@code before}, the state the log has of it (when it has
   * any), to its current values: as readings appended where that is the whole change.
   */
  private void logChange(
      final SeriesKey series, final CachedWindow window, final WindowValues before) {
    if (window.newToStore && !window.logKnown) {
      store.logNew(series, window.granularity, window.start, window.current.state());
    } else if (window.logKnown && appended.between(before, window.current)) {
      store.logAppended(series, window.granularity, window.start, appended);
    } else {
      store.logChange(
          series,
          window.granularity,
          window.start,
          window.logKnown ? before.state() : null,
          window.current.state());
    }
    window.logKnown = true;
    window.kept = false;
  }

  /**
   * Has the store keep {@code window}: as the last commit had it, or as the log has it now (with
   * the changes logged since).
   */
  private void keep(
      final SeriesKey series, final CachedWindow window, final boolean asLastCommitted) {
    if (!window.kept && window.logKnown) {
      store.keep(
          series,
          window.granularity,
          window.start,
          asLastCommitted ? window.state() : window.loggedState());
      window.kept = true;
    }
  }

  /**
   * Publishes the series' cached windows that their log has: each gives its state as logged, so the
   * list changes only when a window joins or leaves it, a few times a window, not at each commit.
   */
  private void publish(final CachedSeries cachedSeries) {
    boolean same = !cachedSeries.listedWindowLeft;
    for (final CachedWindow window : cachedSeries.windows) {
      same &= window.listed == window.publishable();
    }
    if (same) {
      return;
    }
    cachedSeries.listedWindowLeft = false;
    final PublishedWindows.Published[] logged =
        new PublishedWindows.Published[cachedSeries.windows.size()];
    int count = 0;
    for (final CachedWindow window : cachedSeries.windows) {
      window.listed = window.publishable();
      if (window.listed) {
        logged[count++] = window;
      }
    }
    published.publish(cachedSeries.series, List.of(Arrays.copyOf(logged, count)));
  }

  /** Lets {@code window} go from its series: its store keeps it, or it was deleted. */
  private void release(final CachedSeries cachedSeries, final CachedWindow window) {
    cachedSeries.listedWindowLeft |= window.listed;
    budget.release(window.bytes);
    heldBytes -= window.bytes;
  }

  /**
   * The store's windows in the range, with the cached ones in their place: a cached window is the
   * newer, and may not be in the store yet.
   */
  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    final List<Window> stored = store.range(series, granularity, first, last);
    final CachedSeries cachedSeries = cached.get(series);
    if (cachedSeries == null) {
      return stored;
    }
    final List<Window> newer = new ArrayList<>(cachedSeries.windows.size());
    for (final CachedWindow window : cachedSeries.windows) {
      if (window.granularity.equals(granularity) && window.start >= first && window.start <= last) {
        newer.add(new Window(window.start, window.current.state()));
      }
    }
    newer.sort(Comparator.comparingLong(Window::start)); // in the order the windows opened
    return PublishedWindows.overlaid(stored, newer);
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    final OptionalLong stored = store.latestStart(series, granularity);
    final CachedSeries cachedSeries = cached.get(series);
    if (cachedSeries == null) {
      return stored;
    }
    long latest = stored.orElse(Long.MIN_VALUE);
    boolean found = stored.isPresent();
    for (final CachedWindow window : cachedSeries.windows) {
      if (window.granularity.equals(granularity) && (!found || window.start > latest)) {
        latest = window.start;
        found = true;
      }
    }
    return found ? OptionalLong.of(latest) : OptionalLong.empty();
  }

  @Override
  public void deleteBetween(
      final SeriesKey series, final Granularity granularity, final long from, final long upTo) {
    final CachedSeries cachedSeries = cached.get(series);
    if (cachedSeries != null) {
      final Iterator<CachedWindow> windows = cachedSeries.windows.iterator();
      while (windows.hasNext()) {
        final CachedWindow window = windows.next();
        if (window.granularity.equals(granularity)
            && window.start >= from
            && window.start <= upTo) {
          // kept first, so that the store deletes what it logged, and logs the deletion
          keep(series, window, false);
          release(cachedSeries, window);
          windows.remove();
        }
      }
      publish(cachedSeries);
      if (cachedSeries.windows.isEmpty()) {
        cached.remove(series, cachedSeries);
      }
    }
    store.deleteBetween(series, granularity, from, upTo);
  }

  @Override
  public void forEach(final Granularity granularity, final WindowVisitor visitor) {
    writeChanges();
    keepAll();
    store.forEach(granularity, visitor);
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    return store.sealedRuns(series, firstStart, lastStart);
  }

  @Override
  public void putSealedRun(
      final SeriesKey series, final long windowStart, final int number, final ReadingRun readings) {
    store.putSealedRun(series, windowStart, number, readings);
  }

  @Override
  public void deleteSealedRunsBetween(final SeriesKey series, final long from, final long upTo) {
    store.deleteSealedRunsBetween(series, from, upTo);
  }

  @Override
  public OptionalLong storedClock(final SeriesKey series) {
    return store.storedClock(series);
  }

  @Override
  public void storeClock(final SeriesKey series, final long clock) {
    store.storeClock(series, clock);
  }
}
