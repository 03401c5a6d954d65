package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.windows.WindowCacheBudget;
import io.bucketer.windows.WindowState;
import io.bucketer.windows.WriteBehindWindows;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * The window log: what a task's windows become when its local stores are rebuilt from the log alone
 * is what they were, change for change; a group's entries go once its windows do; and the local
 * windows are kept only while they are as the log has them.
 */
class WindowLogTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final long HOUR_START = 1_748_772_000_000L; // 2025-06-01T10:00:00Z
  private static final SeriesKey SENSOR_A = new SeriesKey("sensor-a", "temperature");
  private static final SeriesKey SENSOR_B = new SeriesKey("sensor-b", "humidity");

  /** The wall clock of every commit, unless a test moves it. */
  private static final long NOW = HOUR_START + 120_000;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final BucketerMetrics metrics = new BucketerMetrics(registry);

  /** The stores of one task on one instance; the log is what Kafka would restore elsewhere. */
  private final class Instance {
    final Map<Granularity, KeyValueStore<Bytes, byte[]>> windows = new LinkedHashMap<>();
    final Map<Granularity, KeyValueStore<Bytes, byte[]>> legacy = new LinkedHashMap<>();
    final KeyValueStore<Bytes, byte[]> sealed = store("sealed");
    final KeyValueStore<Bytes, byte[]> legacySealed = store("legacy-sealed");
    final KeyValueStore<Bytes, byte[]> census = store("census");
    final KeyValueStore<Bytes, byte[]> log;

    Instance(final KeyValueStore<Bytes, byte[]> log) {
      this.log = log;
      for (final Granularity granularity : GRANULARITIES) {
        windows.put(granularity, store("windows-" + granularity));
        legacy.put(granularity, store("legacy-" + granularity));
      }
    }

    TaskWindowStore open() {
      return TaskWindowStore.open(
          new TaskWindowStore.Stores(windows, sealed, legacy, legacySealed, clocks(), log, census),
          GRANULARITIES,
          metrics,
          "0_0",
          NOW);
    }

    /** Every local window and run, by store and key. */
    Map<String, Map<Bytes, String>> local() {
      final Map<String, Map<Bytes, String>> local = new TreeMap<>();
      windows.forEach(
          (granularity, store) -> local.put(granularity.label(), contents(store, true)));
      local.put("sealed", contents(sealed, false));
      return local;
    }
  }

  @Test
  void shouldRebuildFromTheLogAloneExactlyTheWindowsAndRunsItWasWrittenFrom() {
    final Instance first = new Instance(store("log"));
    final TaskWindowStore store = first.open();
    final long minute = HOUR_START;
    WindowState a = WindowState.openWith(new Measurement(minute + 1_000, 20.5), 60);
    store.put(SENSOR_A, MINUTE, minute, a);
    store.flushLog(NOW);
    // a reading per commit, as at live traffic: each is logged as the reading alone
    for (int second = 2; second < 40; second++) {
      final WindowState before = a;
      a = a.withReading(new Measurement(minute + second * 1_000L, 20 + second / 7.0), 60);
      store.update(SENSOR_A, MINUTE, minute, before, a);
      store.flushLog(NOW);
    }
    // a sealed run, a second series, a restated value, the close and the hour it rolls into
    store.putSealedRun(SENSOR_A, minute, 0, a.tail());
    final WindowState sealedOff = a.tailSealed();
    store.update(SENSOR_A, MINUTE, minute, a, sealedOff);
    final WindowState b = WindowState.openWith(new Measurement(minute + 5_000, 55), null);
    store.put(SENSOR_B, MINUTE, minute, b);
    final WindowState bRestated =
        b.restated(b.stats().add(new Measurement(minute + 6_000, 56), null));
    store.update(SENSOR_B, MINUTE, minute, b, bRestated);
    store.update(SENSOR_B, MINUTE, minute, bRestated, bRestated.close());
    store.put(SENSOR_B, HOUR, HOUR_START, WindowState.open(bRestated.stats()));
    store.flushLog(NOW);
    // the next minute, then the first one's windows and run expire
    store.put(
        SENSOR_A,
        MINUTE,
        minute + 60_000,
        WindowState.openWith(new Measurement(minute + 61_000, 1), 60));
    store.deleteBetween(SENSOR_B, MINUTE, minute, minute);
    store.flushLog(NOW);

    final Instance elsewhere = new Instance(first.log);
    elsewhere.open();

    assertThat(elsewhere.local()).isEqualTo(first.local());
    assertThat(first.local().get("1m")).hasSize(2);
    assertThat(first.local().get("sealed")).hasSize(1);
  }

  /**
   * At live traffic the window cache logs each open window's change at every commit and keeps the
   * window in its local store only when it closes, or when the task closes: the local windows are
   * then what the log says, and what a rebuild elsewhere makes of it.
   */
  @Test
  void shouldKeepTheWindowsTheCacheHoldsAsTheLogHasThemWhenTheTaskCloses() {
    final Instance here = new Instance(store("log"));
    final TaskWindowStore store = here.open();
    final WriteBehindWindows cache =
        new WriteBehindWindows(store, MINUTE, new WindowCacheBudget(1L << 20));
    final long minute = HOUR_START;
    WindowState a = WindowState.openWith(new Measurement(minute + 1_000, 20.5), 60);
    WindowState b = WindowState.openWith(new Measurement(minute + 1_500, 40), null);
    cache.put(SENSOR_A, MINUTE, minute, a);
    cache.put(SENSOR_B, MINUTE, minute, b);
    cache.writeChanges();
    store.flushLog(NOW);
    for (int second = 2; second < 30; second++) {
      a = a.withReading(new Measurement(minute + second * 1_000L, 20 + second / 4.0), 60);
      b = b.withReading(new Measurement(minute + second * 1_000L + 500, 40 - second), null);
      cache.put(SENSOR_A, MINUTE, minute, a);
      cache.put(SENSOR_B, MINUTE, minute, b);
      cache.writeChanges();
      store.flushLog(NOW);
    }
    // b closes and rolls into its hour: kept at once, and gone from memory
    cache.put(SENSOR_B, MINUTE, minute, b.close());
    cache.put(SENSOR_B, HOUR, HOUR_START, WindowState.open(b.stats()));
    cache.writeChanges();
    store.flushLog(NOW);
    assertThat(here.windows.get(MINUTE).get(StoreKeys.of(SENSOR_A, minute))).isNull();
    assertThat(here.windows.get(MINUTE).get(StoreKeys.of(SENSOR_B, minute)))
        .isEqualTo(WindowStateCodec.encode(b.close()));
    // a reading the next commit would have logged: the task closes first, so it never was
    cache.put(SENSOR_A, MINUTE, minute, a.withReading(new Measurement(minute + 31_000, 1), 60));

    cache.keepAll();

    assertThat(here.windows.get(MINUTE).get(StoreKeys.of(SENSOR_A, minute)))
        .isEqualTo(WindowStateCodec.encode(a));
    final Instance elsewhere = new Instance(here.log);
    elsewhere.open();
    assertThat(elsewhere.local()).isEqualTo(here.local());
    assertThat(here.local().get("1m")).hasSize(2);
    assertThat(here.local().get("1h")).hasSize(1);
  }

  @Test
  void shouldLogAReadingAddedToAKnownWindowAsTheReadingAloneNotTheWindow() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    WindowState window = WindowState.openWith(new Measurement(HOUR_START + 1_000, 20.5), 60);
    for (int second = 2; second < 50; second++) {
      window = window.withReading(new Measurement(HOUR_START + second * 1_000L, second), 60);
    }
    store.put(SENSOR_A, MINUTE, HOUR_START, window);
    store.flushLog(NOW);
    final int wholeBytes = entryBytes(instance.log).get(0);

    final WindowState longer = window.withReading(new Measurement(HOUR_START + 50_000, 50.25), 60);
    store.update(SENSOR_A, MINUTE, HOUR_START, window, longer);
    store.flushLog(NOW);

    final List<Integer> sizes = entryBytes(instance.log);
    assertThat(sizes).hasSize(2);
    // the format, the change's kind and series, the offset, one timestamp and one value
    assertThat(sizes.get(1)).isLessThan(48).isLessThan(wholeBytes / 4);
    final List<WindowChange> changes = decodedEntries(instance.log).get(1);
    assertThat(changes).singleElement().isInstanceOf(WindowChange.Appended.class);
  }

  /**
   * A closing minute hands its readings to the hour, whose entries stay in the log until the hour
   * closes: they are packed as the window packs them, not at 10 bytes or more a reading.
   */
  @Test
  void shouldPackTheReadingsThatAMinuteAppendsToItsHour() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    final WindowState hour = WindowState.openWith(new Measurement(HOUR_START + 1_000, 20.5), 60);
    store.put(SENSOR_A, HOUR, HOUR_START, hour);
    store.flushLog(NOW);
    WindowState longer = hour;
    for (int second = 60; second < 120; second++) {
      longer =
          longer.withReading(
              new Measurement(HOUR_START + second * 1_000L, 20 + second / 100.0), 60);
    }
    store.update(SENSOR_A, HOUR, HOUR_START, hour, longer);
    store.flushLog(NOW);

    final int appendedBytes = entryBytes(instance.log).get(1);
    assertThat(appendedBytes).isLessThan(60 * 4);
    final WindowChange.Appended appended =
        (WindowChange.Appended) decodedEntries(instance.log).get(1).get(0);
    assertThat(appended.timestamps()).hasSize(60).endsWith(HOUR_START + 119_000);
    assertThat(appended.values()).startsWith(20.6).endsWith(21.19);
  }

  @Test
  void shouldLogAWindowWholeWhenTheReadingsAloneWouldNotGiveItsSumsBack() {
    final WindowState window = WindowState.openWith(new Measurement(HOUR_START + 1_000, 20.5), 60);
    // counted but not kept: appending the tail's readings would not give these sums
    final WindowState summed = window.withSums(new Measurement(HOUR_START + 2_000, 21), 60);
    final WindowState revised = window.close().revised();

    assertThat(WindowChange.between(new byte[] {1}, window, summed))
        .isInstanceOf(WindowChange.Whole.class);
    assertThat(WindowChange.between(new byte[] {1}, window.close(), revised))
        .isInstanceOf(WindowChange.Whole.class);
    assertThat(WindowChange.between(new byte[] {1}, null, window))
        .isInstanceOf(WindowChange.Whole.class);
    assertThat(WindowChange.between(new byte[] {1}, window, window.close()))
        .isInstanceOfSatisfying(
            WindowChange.Appended.class, appended -> assertThat(appended.closes()).isTrue());
  }

  @Test
  void shouldCompactAQuietGroupIntoASnapshotThatRebuildsTheSameWindows() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    WindowState a = WindowState.openWith(new Measurement(HOUR_START + 1_000, 20.5), 60);
    store.put(SENSOR_A, MINUTE, HOUR_START, a);
    store.put(
        SENSOR_B, MINUTE, HOUR_START, WindowState.openWith(new Measurement(HOUR_START, 3), null));
    store.putSealedRun(SENSOR_B, HOUR_START, 0, a.tail());
    store.flushLog(NOW);
    for (int second = 2; second < 30; second++) {
      final WindowState before = a;
      a = a.withReading(new Measurement(HOUR_START + second * 1_000L, second), 60);
      store.update(SENSOR_A, MINUTE, HOUR_START, before, a);
      store.flushLog(NOW);
    }
    assertThat(entries(instance.log)).hasSize(29);
    final Map<String, Map<Bytes, String>> before = instance.local();

    // a commit a quiet period later, changing another group: the first is compacted in it
    final WindowState next = WindowState.openWith(new Measurement(HOUR_START + 61_000, 1), 60);
    store.put(SENSOR_A, MINUTE, HOUR_START + 60_000, next);
    store.flushLog(NOW + WindowLog.QUIET_MILLIS);

    assertThat(decodedEntries(instance.log))
        .as("the first minute's snapshot, then the next minute's entry")
        .hasSize(2)
        .first()
        .satisfies(
            snapshot ->
                assertThat(snapshot)
                    .hasSize(3)
                    .hasOnlyElementsOfTypes(
                        WindowChange.Whole.class, WindowChange.RunSealed.class));
    final Instance elsewhere = new Instance(instance.log);
    elsewhere.open();
    assertThat(elsewhere.local()).isEqualTo(instance.local());
    assertThat(instance.local().get("1m")).containsAllEntriesOf(before.get("1m")).hasSize(3);

    // a late reading after the snapshot is logged after it, and rebuilt on top of it
    final WindowState late = a.withReading(new Measurement(HOUR_START + 45_000, 4.5), 60);
    store.update(SENSOR_A, MINUTE, HOUR_START, a, late);
    store.flushLog(NOW + WindowLog.QUIET_MILLIS + 1);
    final Instance again = new Instance(instance.log);
    again.open();
    assertThat(again.local()).isEqualTo(instance.local());
  }

  /**
   * The compaction adds each reading of the group again, in place: the windows it writes must be
   * the very ones the readings made, to the bit, whatever the values (far from zero, negative zero)
   * and the UTC offsets each change carried.
   */
  @Test
  void shouldCompactManySeriesReadingsIntoTheWindowsTheyMadeToTheBit() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    final SplittableRandom random = new SplittableRandom(69);
    final Integer[] offsets = {null, 60, -300, 330};
    final List<SeriesKey> series = new ArrayList<>();
    final Map<SeriesKey, WindowState> windows = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      series.add(new SeriesKey("sensor-" + i, i % 2 == 0 ? "temperature" : null));
    }
    for (int second = 0; second < 60; second++) {
      for (final SeriesKey key : series) {
        if (random.nextInt(4) == 0) {
          continue; // not every series in every commit
        }
        final double value =
            switch (random.nextInt(4)) {
              case 0 -> -0.0;
              case 1 -> 1e9 + random.nextDouble();
              default -> random.nextGaussian() * 40;
            };
        final Measurement reading = new Measurement(HOUR_START + second * 1_000L, value);
        final Integer offset = offsets[random.nextInt(offsets.length)];
        final WindowState before = windows.get(key);
        if (before == null) {
          final WindowState opened = WindowState.openWith(reading, offset);
          store.put(key, MINUTE, HOUR_START, opened);
          windows.put(key, opened);
        } else {
          final WindowState after = before.withReading(reading, offset);
          store.update(key, MINUTE, HOUR_START, before, after);
          windows.put(key, after);
        }
      }
      store.flushLog(NOW);
    }
    assertThat(decodedEntries(instance.log).stream().flatMap(List::stream))
        .as("most changes are readings alone")
        .hasAtLeastOneElementOfType(WindowChange.Appended.class);

    // a commit a quiet period later, changing another group: the minute is compacted in it
    store.put(
        SENSOR_A,
        MINUTE,
        HOUR_START + 60_000,
        WindowState.openWith(new Measurement(HOUR_START + 61_000, 1), 60));
    store.flushLog(NOW + WindowLog.QUIET_MILLIS);

    assertThat(decodedEntries(instance.log).get(0))
        .as("the minute's snapshot")
        .hasSize(series.size())
        .allSatisfy(change -> assertThat(change).isInstanceOf(WindowChange.Whole.class));
    final Instance elsewhere = new Instance(instance.log);
    final TaskWindowStore rebuilt = elsewhere.open();
    assertThat(elsewhere.local()).isEqualTo(instance.local());
    // as text: a run of readings has no equals of its own; a double's text is exact
    windows.forEach(
        (key, window) ->
            assertThat(rebuilt.get(key, MINUTE, HOUR_START))
                .as("%s's minute", key)
                .hasToString(window.toString()));
  }

  /**
   * The window cache hands most changes over as the readings appended, found from its own values
   * ({@link io.bucketer.windows.AppendedReadings}): the log it writes so holds the very changes, in
   * the very bytes, written from each window's states before and after, whatever the readings
   * (-0.0, far from zero, offsets that change), readings counted but not kept, resends, and closes;
   * only their order within a commit's entry differs, as the cache logs some windows as they change
   * and the others at the commit.
   */
  @Test
  void shouldLogThroughTheCacheTheVeryChangesLoggedFromTheWindowsStates() {
    final Instance fromStates = new Instance(store("log"));
    final TaskWindowStore direct = fromStates.open();
    final Instance throughCache = new Instance(store("log"));
    final TaskWindowStore cachedStore = throughCache.open();
    final WriteBehindWindows cache =
        new WriteBehindWindows(cachedStore, MINUTE, new WindowCacheBudget(1L << 30));
    final SplittableRandom random = new SplittableRandom(70);
    final Integer[] offsets = {null, 60, -300, 330};
    final Map<SeriesKey, WindowState> logged = new LinkedHashMap<>();
    final Map<SeriesKey, WindowState> current = new LinkedHashMap<>();
    for (int second = 0; second < 60; second++) {
      for (int i = 0; i < 12; i++) {
        final SeriesKey key = new SeriesKey("sensor-" + i, i % 2 == 0 ? "temperature" : null);
        WindowState window = current.get(key);
        for (int reading = random.nextInt(3); reading > 0; reading--) {
          final double value =
              switch (random.nextInt(4)) {
                case 0 -> -0.0;
                case 1 -> 1e9 + random.nextDouble();
                default -> Math.round(random.nextGaussian() * 4_000) / 100.0;
              };
          final Measurement measurement =
              new Measurement(HOUR_START + second * 1_000L + reading, value);
          final Integer offset = offsets[random.nextInt(offsets.length)];
          window =
              window == null
                  ? WindowState.openWith(measurement, offset)
                  : switch (random.nextInt(20)) {
                    case 0 -> window.withSums(measurement, offset);
                    case 1 -> window.withResend();
                    default -> window.withReading(measurement, offset);
                  };
        }
        if (second == 59 && window != null && random.nextBoolean()) {
          window = window.close();
        }
        if (window != null && window != current.get(key)) {
          current.put(key, window);
          direct.update(key, MINUTE, HOUR_START, logged.get(key), window);
          cache.put(key, MINUTE, HOUR_START, window);
          logged.put(key, window);
        }
      }
      cache.writeChanges();
      direct.flushLog(NOW);
      cachedStore.flushLog(NOW);
    }

    assertThat(entries(throughCache.log))
        .map(entry -> entry.key)
        .containsExactlyElementsOf(entries(fromStates.log).stream().map(e -> e.key).toList());
    // each commit's entry holds the same changes in the same bytes; the windows the cache logs as
    // they change come before those it logs at the commit
    assertThat(entryBytes(throughCache.log)).isEqualTo(entryBytes(fromStates.log));
    assertThat(changesByEntry(throughCache.log)).isEqualTo(changesByEntry(fromStates.log));
    assertThat(decodedEntries(throughCache.log).stream().flatMap(List::stream))
        .filteredOn(change -> change instanceof WindowChange.Appended)
        .as("most changes are readings alone")
        .hasSizeGreaterThan(300);
  }

  /**
   * A rolled-back commit's changes are forgotten, and the next changes of the same group are
   * logged: the log keeps the last group's pending entry at hand, and must let go of it too.
   */
  @Test
  void shouldLogTheChangesAfterARollbackAndNoneOfThoseItForgot() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    final WindowState opened = WindowState.openWith(new Measurement(HOUR_START + 1_000, 1), null);
    store.put(SENSOR_A, MINUTE, HOUR_START, opened);
    store.flushLog(NOW);
    final WindowState forgotten = opened.withReading(new Measurement(HOUR_START + 2_000, 2), null);
    store.update(SENSOR_A, MINUTE, HOUR_START, opened, forgotten);
    store.discard(); // the task's state rolled back: that reading was never committed

    final WindowState again = opened.withReading(new Measurement(HOUR_START + 3_000, 3), null);
    store.update(SENSOR_A, MINUTE, HOUR_START, opened, again);
    store.flushLog(NOW);

    final TaskWindowStore rebuilt = new Instance(instance.log).open();
    assertThat(rebuilt.get(SENSOR_A, MINUTE, HOUR_START)).hasToString(again.toString());
  }

  /**
   * A window the lifecycle knows to be new is logged, counted in its group and kept as a put would
   * log, count and keep it, and no tier is read for it: at live traffic a put of a new window read
   * a missing key.
   */
  @Test
  void shouldLogAndKeepAWindowPutAsNewAsAPutWouldWithoutReadingAnyTier() {
    final Instance viaPut = new Instance(store("log"));
    final Instance viaPutNew = new Instance(store("log"));
    final TaskWindowStore put = viaPut.open();
    final TaskWindowStore putNew = viaPutNew.open();
    final WindowState minute = WindowState.openWith(new Measurement(HOUR_START + 1_000, 1), null);
    final WindowState hour = WindowState.open(minute.stats());
    put.put(SENSOR_A, MINUTE, HOUR_START, minute);
    put.put(SENSOR_A, HOUR, HOUR_START, hour);
    put.flushLog(NOW);
    final double getsBefore = stateGets();

    putNew.putNew(SENSOR_A, MINUTE, HOUR_START, minute);
    putNew.putNew(SENSOR_A, HOUR, HOUR_START, hour);
    putNew.flushLog(NOW);

    assertThat(stateGets()).as("reads of a tier").isEqualTo(getsBefore);
    assertThat(viaPutNew.local()).isEqualTo(viaPut.local());
    assertThat(contents(viaPutNew.log, false)).isEqualTo(contents(viaPut.log, false));
    assertThat(contents(viaPutNew.census, false)).isEqualTo(contents(viaPut.census, false));
  }

  private double stateGets() {
    return registry
        .get(BucketerMetrics.STATE_OPERATIONS)
        .tag("operation", BucketerMetrics.StateOperation.GET.tag())
        .counter()
        .count();
  }

  @Test
  void shouldReleaseAGroupsEntriesOnceItsLastWindowAndRunAreDeleted() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    final WindowState window = WindowState.openWith(new Measurement(HOUR_START + 1_000, 1), null);
    store.put(SENSOR_A, MINUTE, HOUR_START, window);
    store.put(SENSOR_B, MINUTE, HOUR_START, window);
    store.putSealedRun(SENSOR_A, HOUR_START, 0, window.tail());
    store.flushLog(NOW);
    store.deleteBetween(SENSOR_A, MINUTE, HOUR_START, HOUR_START);
    store.deleteSealedRunsBetween(SENSOR_A, HOUR_START, HOUR_START);
    store.flushLog(NOW);
    assertThat(entryBytes(instance.log)).hasSize(2); // sensor b's window is still there

    store.deleteBetween(SENSOR_B, MINUTE, HOUR_START, HOUR_START);
    store.flushLog(NOW);

    assertThat(entryBytes(instance.log)).isEmpty();
    assertThat(contents(instance.log, false)).containsOnlyKeys(WindowLogKeys.SEQUENCE);
    final Instance elsewhere = new Instance(instance.log);
    elsewhere.open();
    assertThat(elsewhere.local().get("1m")).isEmpty();
  }

  @Test
  void shouldKeepTheLocalWindowsOnlyWhileNoOtherInstanceChangedTheLogSince() {
    final Instance here = new Instance(store("log"));
    final TaskWindowStore store = here.open();
    store.put(
        SENSOR_A, MINUTE, HOUR_START, WindowState.openWith(new Measurement(HOUR_START, 1), null));
    store.flushLog(NOW);
    // a local window the log does not have: a reopen that rebuilds would lose it
    final Bytes unlogged = StoreKeys.of(SENSOR_B, HOUR_START);
    here.windows
        .get(MINUTE)
        .put(
            unlogged,
            WindowStateCodec.encode(WindowState.openWith(new Measurement(HOUR_START, 2), null)));

    here.open();
    assertThat(here.windows.get(MINUTE).get(unlogged)).isNotNull();

    // another instance takes the task over, from the log, and changes it
    final Instance elsewhere = new Instance(here.log);
    final TaskWindowStore there = elsewhere.open();
    there.put(
        SENSOR_A,
        MINUTE,
        HOUR_START + 60_000,
        WindowState.openWith(new Measurement(HOUR_START + 60_000, 3), null));
    there.flushLog(NOW);

    here.open();
    assertThat(here.windows.get(MINUTE).get(unlogged)).isNull();
    assertThat(here.local()).isEqualTo(elsewhere.local());
  }

  @Test
  void shouldCutAGroupsEntryIntoChunksAndRebuildFromThemAll() {
    final Instance instance = new Instance(store("log"));
    final TaskWindowStore store = instance.open();
    final int series = 8_000; // about 90 bytes each whole: three chunks of 256 KiB
    for (int i = 0; i < series; i++) {
      store.put(
          new SeriesKey("sensor-" + i, "temperature"),
          MINUTE,
          HOUR_START,
          WindowState.openWith(new Measurement(HOUR_START + i, i), null));
    }
    store.flushLog(NOW);

    final List<Integer> chunks = entryBytes(instance.log);
    assertThat(chunks)
        .hasSizeGreaterThan(1)
        .allSatisfy(bytes -> assertThat(bytes).isLessThanOrEqualTo(WindowLog.CHUNK_BYTES + 200));
    final Instance elsewhere = new Instance(instance.log);
    elsewhere.open();
    assertThat(elsewhere.local().get("1m")).hasSize(series).isEqualTo(instance.local().get("1m"));

    // one commit's chunks are one commit: quiet, the group is not compacted again and again
    final List<KeyValue<Bytes, byte[]>> before = entries(instance.log);
    for (int commit = 1; commit <= 3; commit++) {
      store.put(
          SENSOR_A,
          MINUTE,
          HOUR_START + commit * 60_000L,
          WindowState.openWith(new Measurement(HOUR_START + commit * 60_000L, 1), null));
      store.flushLog(NOW + commit * WindowLog.QUIET_MILLIS);
    }
    assertThat(entries(instance.log).subList(0, chunks.size()))
        .extracting(entry -> entry.key)
        .isEqualTo(before.stream().map(entry -> entry.key).toList());
  }

  @Test
  void shouldReadTheWindowsOfTheChangeloggedStoresAndMoveEachIntoTheLogWhenItChanges() {
    final Instance upgraded = new Instance(store("log"));
    final WindowState kept = WindowState.openWith(new Measurement(HOUR_START + 1_000, 7), null);
    final WindowState other = WindowState.openWith(new Measurement(HOUR_START + 2_000, 8), null);
    upgraded
        .legacy
        .get(MINUTE)
        .put(StoreKeys.of(SENSOR_A, HOUR_START), WindowStateCodec.encode(kept));
    upgraded
        .legacy
        .get(MINUTE)
        .put(StoreKeys.of(SENSOR_B, HOUR_START), WindowStateCodec.encode(other));
    upgraded.legacySealed.put(
        StoreKeys.of(SENSOR_A, HOUR_START, 0), WindowStateCodec.encodeRun(kept.tail()));
    final TaskWindowStore store = upgraded.open();

    assertThat(store.get(SENSOR_A, MINUTE, HOUR_START)).hasToString(kept.toString());
    assertThat(store.range(SENSOR_A, MINUTE, HOUR_START, HOUR_START)).hasSize(1);
    assertThat(store.sealedRuns(SENSOR_A, HOUR_START, HOUR_START)).hasSize(1);

    final WindowState grown = kept.withReading(new Measurement(HOUR_START + 3_000, 9), null);
    store.update(SENSOR_A, MINUTE, HOUR_START, kept, grown);
    store.deleteBetween(SENSOR_B, MINUTE, HOUR_START, HOUR_START);
    store.flushLog(NOW);

    assertThat(upgraded.legacy.get(MINUTE).get(StoreKeys.of(SENSOR_A, HOUR_START))).isNull();
    assertThat(upgraded.legacy.get(MINUTE).get(StoreKeys.of(SENSOR_B, HOUR_START))).isNull();
    assertThat(store.get(SENSOR_A, MINUTE, HOUR_START)).hasToString(grown.toString());
    assertThat(decodedEntries(upgraded.log).get(0))
        .singleElement()
        .isInstanceOf(WindowChange.Whole.class);
    final Instance elsewhere = new Instance(upgraded.log);
    elsewhere.open();
    assertThat(elsewhere.local().get("1m")).isEqualTo(upgraded.local().get("1m")).hasSize(1);
  }

  private static KeyValueStore<Bytes, byte[]> store(final String name) {
    final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore(name).get();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    return store;
  }

  @SuppressWarnings("unchecked")
  private static KeyValueStore<Bytes, Long> clocks() {
    return (KeyValueStore<Bytes, Long>) (Object) store("clocks");
  }

  private static Map<Bytes, String> contents(
      final KeyValueStore<Bytes, byte[]> store, final boolean windows) {
    final Map<Bytes, String> contents = new TreeMap<>();
    try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
      all.forEachRemaining(
          entry ->
              contents.put(
                  entry.key,
                  windows
                      ? WindowStateCodec.decode(entry.value).toString()
                      : Bytes.wrap(entry.value).toString()));
    }
    return contents;
  }

  private static List<KeyValue<Bytes, byte[]>> entries(final KeyValueStore<Bytes, byte[]> log) {
    final List<KeyValue<Bytes, byte[]>> entries = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> all =
        log.range(WindowLogKeys.firstGroup(), WindowLogKeys.afterGroups())) {
      all.forEachRemaining(entries::add);
    }
    return entries;
  }

  private static List<Integer> entryBytes(final KeyValueStore<Bytes, byte[]> log) {
    return entries(log).stream().map(entry -> entry.value.length).toList();
  }

  /** Each entry's changes, each described in full, sorted: what an entry holds, in any order. */
  private static List<List<String>> changesByEntry(final KeyValueStore<Bytes, byte[]> log) {
    return decodedEntries(log).stream()
        .map(changes -> changes.stream().map(WindowLogTest::described).sorted().toList())
        .toList();
  }

  private static String described(final WindowChange change) {
    final String series = Arrays.toString(change.series());
    if (change instanceof WindowChange.Appended appended) {
      return series
          + " appended "
          + appended.closes()
          + " "
          + appended.utcOffsetMinutes()
          + " "
          + Arrays.toString(appended.timestamps())
          + " "
          + Arrays.toString(appended.values());
    }
    if (change instanceof WindowChange.Whole whole) {
      return series + " whole " + whole.state(); // a double's text is exact
    }
    return series + " " + change.getClass().getSimpleName();
  }

  private static List<List<WindowChange>> decodedEntries(final KeyValueStore<Bytes, byte[]> log) {
    return entries(log).stream()
        .map(entry -> WindowLogCodec.decode(entry.value, WindowLogKeys.startOf(entry.key)))
        .toList();
  }
}
