package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.topology.WindowLogKeys.Group;
import io.bucketer.windows.AppendedReadings;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import io.bucketer.windows.WindowStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window lifecycle's store over one task's Kafka Streams stores: local window and run stores,
 * made durable by the task's {@link WindowLog}, and the changelogged stores of the layout before
 * it, read until their windows expire. Counts every operation in {@code bucketer.state.operations}:
 * what each reading costs in the state is a figure the benchmark prints.
 *
 * <p>A window lives in one tier: one put from the older stores moves it (whole) into the local ones
 * and deletes it from the older, whose changelog drains as their windows change or expire.
 */
final class TaskWindowStore extends StoreWindowReader implements WindowStore, WindowLog.Target {

  private static final Logger LOG = LoggerFactory.getLogger(TaskWindowStore.class);

  private final Map<Granularity, KeyValueStore<Bytes, byte[]>> windows;
  private final KeyValueStore<Bytes, byte[]> sealedRuns;
  private final Map<Granularity, KeyValueStore<Bytes, byte[]>> legacyWindows;
  private final KeyValueStore<Bytes, byte[]> legacySealedRuns;
  private final boolean legacyHeld;
  private final KeyValueStore<Bytes, Long> clocks;
  private final KeyValueStore<Bytes, byte[]> census;
  private final WindowLog log;
  private final Granularity finest;
  private final BucketerMetrics metrics;

  /** The series the lifecycle last asked about, and its encoding: asked again and again. */
  private SeriesKey lastSeries;

  private byte[] lastSeriesBytes;

  /** What a rebuild from the log wrote, for its log line. */
  private long rebuiltWindows;

  private long rebuiltRuns;

  /** A task's stores, by kind. */
  record Stores(
      Map<Granularity, KeyValueStore<Bytes, byte[]>> windows,
      KeyValueStore<Bytes, byte[]> sealedRuns,
      Map<Granularity, KeyValueStore<Bytes, byte[]>> legacyWindows,
      KeyValueStore<Bytes, byte[]> legacySealedRuns,
      KeyValueStore<Bytes, Long> clocks,
      KeyValueStore<Bytes, byte[]> log,
      KeyValueStore<Bytes, byte[]> census) {

    /** The stores of the task of {@code context}, by their names in the topology. */
    static Stores of(final ProcessingContext context, final List<Granularity> granularities) {
      final Map<Granularity, KeyValueStore<Bytes, byte[]>> windows = new LinkedHashMap<>();
      final Map<Granularity, KeyValueStore<Bytes, byte[]>> legacy = new LinkedHashMap<>();
      for (final Granularity granularity : granularities) {
        windows.put(granularity, context.getStateStore(TopologyNames.windowStore(granularity)));
        legacy.put(
            granularity, context.getStateStore(TopologyNames.legacyWindowStore(granularity)));
      }
      final PreCommitHookStore log = context.getStateStore(TopologyNames.WINDOW_LOG_STORE);
      return new Stores(
          windows,
          context.getStateStore(TopologyNames.SEALED_READINGS_STORE),
          legacy,
          context.getStateStore(TopologyNames.LEGACY_SEALED_READINGS_STORE),
          context.getStateStore(TopologyNames.CLOCK_STORE),
          log.store(),
          context.getStateStore(TopologyNames.WINDOW_LOG_CENSUS_STORE));
    }
  }

  private TaskWindowStore(
      final Stores stores,
      final boolean legacyHeld,
      final List<Granularity> granularities,
      final BucketerMetrics metrics) {
    super(
        tiers(stores.windows(), legacyHeld ? stores.legacyWindows() : Map.of())::get,
        legacyHeld
            ? List.of(stores.sealedRuns(), stores.legacySealedRuns())
            : List.of(stores.sealedRuns()));
    this.windows = stores.windows();
    this.sealedRuns = stores.sealedRuns();
    this.legacyWindows = stores.legacyWindows();
    this.legacySealedRuns = stores.legacySealedRuns();
    this.legacyHeld = legacyHeld;
    this.clocks = stores.clocks();
    this.census = stores.census();
    this.log = new WindowLog(stores.log(), stores.census(), granularities);
    this.finest = granularities.get(0);
    this.metrics = metrics;
  }

  /**
   * The store over {@code stores}, its local windows brought to what the log holds: as they are
   * when the task last closed cleanly here and nobody changed the log since, else rebuilt.
   *
   * @param granularities finest first
   */
  static TaskWindowStore open(
      final Stores stores,
      final List<Granularity> granularities,
      final BucketerMetrics metrics,
      final String task,
      final long now) {
    final boolean legacyHeld =
        holdsAny(stores.legacySealedRuns())
            || stores.legacyWindows().values().stream().anyMatch(TaskWindowStore::holdsAny);
    final TaskWindowStore store = new TaskWindowStore(stores, legacyHeld, granularities, metrics);
    if (store.log.localWindowsCurrent()) {
      store.log.loadCensus(now);
    } else {
      final long started = System.nanoTime();
      store.wipeLocal();
      store.log.replay(store, now);
      LOG.info(
          "task {}: rebuilt {} windows and {} sealed runs from the window log in {} ms",
          task,
          store.rebuiltWindows,
          store.rebuiltRuns,
          (System.nanoTime() - started) / 1_000_000);
    }
    return store;
  }

  /**
   * Writes the changes since the last call to the log; runs just before each commit.
   *
   * @param now the wall clock
   */
  void flushLog(final long now) {
    log.flush(now);
  }

  /** Forgets the changes not yet written to the log: the task's state was rolled back. */
  void discard() {
    log.discard();
  }

  private static Map<Granularity, List<? extends KeyValueStore<Bytes, byte[]>>> tiers(
      final Map<Granularity, KeyValueStore<Bytes, byte[]>> windows,
      final Map<Granularity, KeyValueStore<Bytes, byte[]>> legacy) {
    final Map<Granularity, List<? extends KeyValueStore<Bytes, byte[]>>> tiers =
        new LinkedHashMap<>();
    windows.forEach(
        (granularity, store) ->
            tiers.put(
                granularity,
                legacy.containsKey(granularity)
                    ? List.of(store, legacy.get(granularity))
                    : List.of(store)));
    return tiers;
  }

  private static boolean holdsAny(final KeyValueStore<Bytes, byte[]> store) {
    try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
      return all.hasNext();
    }
  }

  private void wipeLocal() {
    for (final KeyValueStore<Bytes, byte[]> store : windows.values()) {
      deleteAll(store);
    }
    deleteAll(sealedRuns);
    deleteAll(census);
  }

  private static void deleteAll(final KeyValueStore<Bytes, byte[]> store) {
    final List<Bytes> keys = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
      all.forEachRemaining(entry -> keys.add(entry.key));
    }
    keys.forEach(store::delete);
  }

  @Override
  public void window(
      final Granularity granularity,
      final byte[] series,
      final long start,
      final WindowState state) {
    windows.get(granularity).put(StoreKeys.of(series, start), WindowStateCodec.encode(state));
    rebuiltWindows++;
  }

  @Override
  public void sealedRun(
      final byte[] series, final long windowStart, final int number, final ReadingRun run) {
    sealedRuns.put(StoreKeys.of(series, windowStart, number), WindowStateCodec.encodeRun(run));
    rebuiltRuns++;
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    metrics.stateOperation(StateOperation.GET);
    return super.get(series, granularity, start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    metrics.stateOperation(StateOperation.RANGE);
    return super.range(series, granularity, first, last);
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    metrics.stateOperation(StateOperation.RANGE);
    return super.latestStart(series, granularity);
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    metrics.stateOperation(StateOperation.RANGE);
    return super.sealedRuns(series, firstStart, lastStart);
  }

  @Override
  public void put(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    update(series, granularity, start, null, state);
  }

  /** Logs the window as new ({@link #logNew}) and writes it locally: no tier is looked up. */
  @Override
  public void putNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    logNew(series, granularity, start, state);
    keep(series, granularity, start, state);
  }

  /** Writes the window locally and logs its change ({@link #logChange}). */
  @Override
  public void update(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final WindowState state) {
    logChange(series, granularity, start, before, state);
    keep(series, granularity, start, state);
  }

  /**
   * Logs the window's change: readings appended where {@code before} is what the log has, else the
   * window whole, counted in its group when it is new there. Not a local write: the window cache
   * holds the window until it closes ({@link #keep}), so at live traffic, where each commit brings
   * a reading of each series, the local store no longer takes every window whole at every commit.
   */
  @Override
  public void logChange(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final WindowState state) {
    // The store key only where a store is read: at live traffic nearly every change has a known
    // before and no legacy tier, and needs the series' bytes alone.
    final byte[] encoded = encoded(series);
    final Bytes key = legacyHeld || before == null ? StoreKeys.of(encoded, start) : null;
    final WindowChange change;
    final int added;
    if (legacyHeld && legacyWindows.get(granularity).get(key) != null) {
      legacyWindows.get(granularity).delete(key); // moved: the log never had it
      change = new WindowChange.Whole(encoded, state);
      added = 1;
    } else if (before == null) {
      change = new WindowChange.Whole(encoded, state);
      metrics.stateOperation(StateOperation.GET);
      added = windows.get(granularity).get(key) == null ? 1 : 0;
    } else {
      change = WindowChange.between(encoded, before, state);
      added = 0;
    }
    log.record(new Group(granularity, start), change, added);
  }

  /**
   * Logs the readings alone, from where they are: the cache found them to be the whole change. A
   * window the older stores may still hold goes through {@link #logChange}, which moves it.
   */
  @Override
  public void logAppended(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final AppendedReadings appended) {
    if (legacyHeld) {
      logChange(series, granularity, start, appended.before(), appended.after());
    } else {
      log.recordAppended(new Group(granularity, start), encoded(series), appended);
    }
  }

  /**
   * Logs the window whole, counted in its group as a new key: no tier holds it, so neither is
   * looked up, where {@link #logChange} reads the local store for a window it knows nothing of.
   */
  @Override
  public void logNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    log.record(new Group(granularity, start), new WindowChange.Whole(encoded(series), state), 1);
  }

  /** Writes the window to its local store, where reads find it; its changes are logged already. */
  @Override
  public void keep(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    metrics.stateOperation(StateOperation.PUT);
    windows.get(granularity).put(key(series, start), WindowStateCodec.encode(state));
  }

  @Override
  Bytes key(final SeriesKey series, final long start) {
    return StoreKeys.of(encoded(series), start);
  }

  private byte[] encoded(final SeriesKey series) {
    if (series != lastSeries) {
      lastSeries = series;
      lastSeriesBytes = SeriesKeySerde.toBytes(series);
    }
    return lastSeriesBytes;
  }

  @Override
  public void deleteBetween(
      final SeriesKey series, final Granularity granularity, final long from, final long upTo) {
    if (from > upTo) {
      return;
    }
    final byte[] encoded = encoded(series);
    deleteRange(
        windows.get(granularity),
        StoreKeys.of(encoded, from),
        StoreKeys.of(encoded, upTo),
        key ->
            log.record(
                new Group(granularity, StoreKeys.timeOf(key)),
                new WindowChange.Deleted(encoded),
                -1));
    if (legacyHeld) {
      deleteRange(
          legacyWindows.get(granularity),
          StoreKeys.of(encoded, from),
          StoreKeys.of(encoded, upTo),
          key -> {});
    }
  }

  @Override
  public void putSealedRun(
      final SeriesKey series, final long windowStart, final int number, final ReadingRun run) {
    metrics.stateOperation(StateOperation.PUT);
    final byte[] encoded = encoded(series);
    final Bytes key = StoreKeys.of(encoded, windowStart, number);
    final int added = sealedRuns.get(key) == null ? 1 : 0;
    sealedRuns.put(key, WindowStateCodec.encodeRun(run));
    log.record(
        new Group(finest, windowStart), new WindowChange.RunSealed(encoded, number, run), added);
  }

  @Override
  public void deleteSealedRunsBetween(final SeriesKey series, final long from, final long upTo) {
    if (from > upTo) {
      return;
    }
    final byte[] encoded = encoded(series);
    final Bytes first = StoreKeys.of(encoded, from, Integer.MIN_VALUE);
    final Bytes last = StoreKeys.of(encoded, upTo, Integer.MAX_VALUE);
    deleteRange(
        sealedRuns,
        first,
        last,
        key ->
            log.record(
                new Group(finest, StoreKeys.timeOfSuffixed(key)),
                new WindowChange.RunDeleted(encoded, StoreKeys.suffixOf(key)),
                -1));
    if (legacyHeld) {
      deleteRange(legacySealedRuns, first, last, key -> {});
    }
  }

  @Override
  public OptionalLong storedClock(final SeriesKey series) {
    metrics.stateOperation(StateOperation.GET);
    final Long stored = clocks.get(Bytes.wrap(SeriesKeySerde.toBytes(series)));
    return stored == null ? OptionalLong.empty() : OptionalLong.of(stored);
  }

  @Override
  public void storeClock(final SeriesKey series, final long clock) {
    metrics.stateOperation(StateOperation.PUT);
    clocks.put(Bytes.wrap(SeriesKeySerde.toBytes(series)), clock);
  }

  @Override
  public void forEach(final Granularity granularity, final WindowVisitor visitor) {
    visit(windows.get(granularity), visitor);
    if (legacyHeld) {
      visit(legacyWindows.get(granularity), visitor);
    }
  }

  private static void visit(final KeyValueStore<Bytes, byte[]> store, final WindowVisitor visitor) {
    try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
      while (all.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = all.next();
        visitor.visit(
            StoreKeys.seriesOf(entry.key),
            StoreKeys.timeOf(entry.key),
            WindowStateCodec.decode(entry.value));
      }
    }
  }

  private void deleteRange(
      final KeyValueStore<Bytes, byte[]> store,
      final Bytes from,
      final Bytes to,
      final Consumer<Bytes> deleted) {
    metrics.stateOperation(StateOperation.RANGE);
    final List<Bytes> doomed = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range = store.range(from, to)) {
      range.forEachRemaining(entry -> doomed.add(entry.key));
    }
    for (final Bytes key : doomed) {
      metrics.stateOperation(StateOperation.DELETE);
      store.delete(key);
      deleted.accept(key);
    }
  }
}
