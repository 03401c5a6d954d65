package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * The readings an aggregating task holds before it applies them: each series' readings handed over
 * together in the order they came, whichever batches brought them; logged at each commit and
 * deleted in the commit after their apply, so that a task that starts again on the log holds
 * exactly the readings not yet applied.
 */
class ReadingHoldTest {

  private static final SeriesKey A = new SeriesKey("sensor-a", "temperature");
  private static final SeriesKey B = new SeriesKey("sensor-b", null);
  private static final SeriesKey C = new SeriesKey("sensor-c", "humidity");
  private static final long HOLD = 5_000;

  private final KeyValueStore<Bytes, byte[]> log = store();

  /** The instance's gauge of readings held, which every hold here reports to. */
  private final AtomicLong gauge = new AtomicLong();

  private final LongConsumer counted = gauge::addAndGet;

  @Test
  void shouldCountTheReadingsItHoldsUntilTheyAreAppliedOrForgotten() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    hold.add(batch(A, 1_000, B, 1_000), A, 0);
    hold.add(one(2_000), A, 10);
    assertThat(gauge).hasValue(3);
    hold.beforeCommit();
    assertThat(gauge).hasValue(3);
    apply(hold);
    assertThat(gauge).hasValue(0);

    hold.add(batch(C, 3_000), C, 20);
    hold.beforeCommit();
    final ReadingHold elsewhere = new ReadingHold(log, HOLD, 0, counted);
    hold.forget(); // the task moved: what it held is the other's now, read from the log
    assertThat(gauge).hasValue(0);
    elsewhere.restore(30);
    assertThat(gauge).hasValue(1);
  }

  @Test
  void shouldHandEachSeriesItsReadingsTogetherInTheOrderTheyCame() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 3, counted);
    hold.add(batch(A, 1_000, B, 1_000, C, 1_000), A, 0);
    hold.beforeCommit();
    hold.add(batch(B, 2_000, A, 2_000), A, 100);
    hold.add(batch(C, 2_000, A, 3_000), A, 200);

    final Map<SeriesKey, List<Long>> applied = apply(hold);

    assertThat(applied)
        .containsOnlyKeys(A, B, C)
        .containsEntry(A, List.of(1_000L, 2_000L, 3_000L))
        .containsEntry(B, List.of(1_000L, 2_000L))
        .containsEntry(C, List.of(1_000L, 2_000L));
  }

  @Test
  void shouldPutTogetherASeriesWhoseReadingsCameAsPartsOfOneReadingEach() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 3, counted);
    final PartitionBatchWriter writer = new PartitionBatchWriter(0, 1, 0);
    for (final Object[] reading :
        new Object[][] {{A, 1_000L}, {B, 1_000L}, {A, 2_000L}, {C, 1_000L}, {A, 3_000L}}) {
      final SeriesKey series = (SeriesKey) reading[0];
      writer.add(series, SeriesKeySerde.toBytes(series), (long) reading[1], 1.0, null);
    }
    hold.add(read(writer.finish()), A, 0);
    hold.add(batch(B, 2_000, A, 4_000), A, 100);

    final Map<SeriesKey, List<Long>> applied = apply(hold);

    assertThat(applied)
        .containsOnlyKeys(A, B, C)
        .containsEntry(A, List.of(1_000L, 2_000L, 3_000L, 4_000L))
        .containsEntry(B, List.of(1_000L, 2_000L))
        .containsEntry(C, List.of(1_000L));
  }

  @Test
  void shouldBeDueAHoldAfterItsFirstReadingOrOnceItHoldsTooMuch() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    assertThat(hold.due(1_000_000)).isFalse();
    hold.add(batch(A, 1_000), A, 10_000);
    assertThat(hold.due(10_000 + HOLD - 1)).isFalse();
    assertThat(hold.due(10_000 + HOLD)).isTrue();
    apply(hold);
    assertThat(hold.holdsAny()).isFalse();
    assertThat(hold.due(Long.MAX_VALUE)).isFalse();

    final int series = (int) (ReadingHold.MAX_HELD_BYTES / 30) + 1;
    final PartitionBatch large = new PartitionBatch(0, 1, series);
    for (int i = 0; i < series; i++) {
      large.add(large.startSeries(new SeriesKey("s-" + i, null)), 1_000, i, null);
    }
    hold.add(read(large), A, 20_000);
    assertThat(hold.due(20_000)).isTrue();
  }

  @Test
  void shouldLogWhatCameAtEachCommitAndDeleteItInTheCommitAfterItsApply() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 1, counted);
    hold.add(batch(A, 1_000, B, 1_000), A, 0);
    hold.beforeCommit();
    hold.add(batch(A, 2_000), A, 100);
    hold.beforeCommit();
    assertThat(heldKeys()).hasSize(2);

    // A task that starts again on this log holds both commits' readings.
    final ReadingHold restarted = new ReadingHold(log, HOLD, 1, counted);
    restarted.restore(7_000);
    assertThat(restarted.due(7_000 + HOLD)).isTrue();
    assertThat(apply(restarted))
        .containsEntry(A, List.of(1_000L, 2_000L))
        .containsEntry(B, List.of(1_000L));

    // Applied, the entries stay until the commit that logs what the readings changed.
    assertThat(heldKeys()).hasSize(2);
    restarted.add(batch(C, 3_000), C, 8_000);
    restarted.beforeCommit();
    assertThat(heldKeys()).hasSize(1);
    final ReadingHold again = new ReadingHold(log, HOLD, 1, counted);
    again.restore(9_000);
    assertThat(apply(again)).containsOnlyKeys(C).containsEntry(C, List.of(3_000L));
  }

  /**
   * A commit that brought two or more readings of each series (a backlog's) is applied at that
   * commit: holding it would save nothing and log every reading once more.
   */
  @Test
  void shouldApplyAtTheCommitWhatCameDense() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    assertThat(hold.applyAtCommit()).isFalse();
    hold.add(batch(A, 1_000, B, 1_000, C, 1_000), A, 0);
    assertThat(hold.applyAtCommit()).as("a reading of each series").isFalse();
    hold.beforeCommit();

    hold.add(read(readingsOfEach(ReadingHold.DENSE_READINGS_PER_SERIES - 1, 2_000)), A, 100);
    assertThat(hold.applyAtCommit()).as("a live fleet's after a pause").isFalse();
    hold.beforeCommit();
    hold.add(read(readingsOfEach(ReadingHold.DENSE_READINGS_PER_SERIES, 10_000)), A, 200);
    assertThat(hold.applyAtCommit()).as("a backlog's").isTrue();
    final Map<SeriesKey, List<Long>> applied = apply(hold);
    assertThat(applied.get(A))
        .hasSize(1 + 2 * ReadingHold.DENSE_READINGS_PER_SERIES - 1)
        .isSorted()
        .startsWith(1_000L, 2_000L);
    hold.beforeCommit();
    assertThat(heldKeys()).as("the commit logs none of it, and deletes what it held").isEmpty();
  }

  /** A batch of {@code each} readings of A and of B, a second apart from {@code from}. */
  private static PartitionBatch readingsOfEach(final int each, final long from) {
    final PartitionBatch batch = new PartitionBatch(0, 1, 2);
    final ReadingBatch ofA = batch.startSeries(A);
    final ReadingBatch ofB = batch.startSeries(B);
    for (int i = 0; i < each; i++) {
      batch.add(ofA, from + i * 1_000L, 1.0, null);
      batch.add(ofB, from + i * 1_000L, 1.0, null);
    }
    return batch;
  }

  /** Readings keyed by sensor come one a record: a commit's are counted by series. */
  @Test
  void shouldCountTheSeriesOfReadingsThatCameDecoded() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    hold.add(one(1_000), A, 0);
    assertThat(hold.applyAtCommit()).isFalse();
    for (int i = 1; i < ReadingHold.DENSE_READINGS_PER_SERIES; i++) {
      hold.add(one(1_000 + i * 1_000L), A, 10);
    }
    assertThat(hold.applyAtCommit()).isTrue();
    assertThat(apply(hold).get(A)).hasSize(ReadingHold.DENSE_READINGS_PER_SERIES);
  }

  private static ReadingBatch one(final long time) {
    final ReadingBatch reading = new ReadingBatch(1);
    reading.add(time, 1.0, null);
    return reading;
  }

  /** A hold set to 0 after a run with one: what that run left in the log is due at once. */
  @Test
  void shouldMakeWhatALongerHoldLeftDueAtOnceWithoutAHold() {
    final ReadingHold longer = new ReadingHold(log, HOLD, 1, counted);
    longer.add(batch(A, 1_000), A, 0);
    longer.beforeCommit();

    final ReadingHold none = new ReadingHold(log, 0, 1, counted);
    none.restore(50_000);

    assertThat(none.holdsAny()).isTrue();
    assertThat(none.due(50_000)).isTrue();
    assertThat(apply(none)).containsEntry(A, List.of(1_000L));
  }

  @Test
  void shouldHoldReadingsThatCameDecodedAsTheLogHasThem() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 2, counted);
    final ReadingBatch one = new ReadingBatch(1);
    one.add(1_000, 21.5, 60);
    hold.add(one, A, 0);
    final ReadingBatch other = new ReadingBatch(1);
    other.add(2_000, 22.5, null);
    hold.add(other, A, 10);
    hold.beforeCommit();

    final ReadingHold restarted = new ReadingHold(log, HOLD, 2, counted);
    restarted.restore(0);
    final List<String> readings = new ArrayList<>();
    restarted.applyBySeries(
        3,
        (series, batch) -> {
          for (int i = 0; i < batch.size(); i++) {
            readings.add(
                series
                    + "@"
                    + batch.timestamp(i)
                    + "="
                    + batch.value(i)
                    + "/"
                    + batch.utcOffsetMinutes(i));
          }
        });
    assertThat(readings)
        .containsExactly(
            "sensor-a/temperature@1000=21.5/60", "sensor-a/temperature@2000=22.5/null");
  }

  @Test
  void shouldCutACommitsEntryAtTheLogsChunkSize() {
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    final int perBatch = 5_000; // about 140 KiB each
    for (int b = 0; b < 4; b++) {
      final PartitionBatch batch = new PartitionBatch(0, 1, perBatch);
      for (int i = 0; i < perBatch; i++) {
        batch.add(batch.startSeries(new SeriesKey("sensor-" + i, "m")), 1_000L * (b + 1), i, null);
      }
      hold.add(read(batch), A, 0);
    }
    hold.beforeCommit();

    final List<byte[]> entries = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> all =
        log.range(WindowLogKeys.firstHeld(), WindowLogKeys.afterHeld())) {
      all.forEachRemaining(entry -> entries.add(entry.value));
    }
    assertThat(entries).hasSizeGreaterThan(1);
    assertThat(entries)
        .allSatisfy(e -> assertThat(e.length).isLessThanOrEqualTo(WindowLog.CHUNK_BYTES));
    final ReadingHold restarted = new ReadingHold(log, HOLD, 0, counted);
    restarted.restore(0);
    final Map<SeriesKey, List<Long>> applied = apply(restarted);
    assertThat(applied).hasSize(perBatch);
    assertThat(applied.get(new SeriesKey("sensor-17", "m")))
        .containsExactly(1_000L, 2_000L, 3_000L, 4_000L);
  }

  @Test
  void shouldHandTheSeriesInTheOrderOfTheSlotsAHashMapOfAsManyKeepsThem() {
    final int series = 5_000;
    final Map<SeriesKey, Integer> slots = new HashMap<>();
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    final PartitionBatch batch = new PartitionBatch(0, 1, series);
    for (int i = 0; i < series; i++) {
      final SeriesKey key = new SeriesKey("sensor-" + i, i % 2 == 0 ? "m" : null);
      batch.add(batch.startSeries(key), 1_000, 1.0, null);
      final int hash = key.hashCode();
      slots.put(key, (hash ^ (hash >>> 16)) & ((1 << ReadingHold.slotBits(series)) - 1));
    }
    hold.add(read(batch), A, 0);

    final List<Integer> slotsInOrder =
        apply(hold, series).keySet().stream().map(slots::get).toList();

    assertThat(slotsInOrder).hasSize(series).isSorted();
  }

  @Test
  void shouldKeepApartTwoSeriesWhoseKeysShareAHash() {
    final SeriesKey aa = new SeriesKey("Aa", "m");
    final SeriesKey bb = new SeriesKey("BB", "m");
    assertThat(aa.hashCode()).isEqualTo(bb.hashCode());
    final ReadingHold hold = new ReadingHold(log, HOLD, 0, counted);
    hold.add(batch(aa, 1_000, bb, 1_000), aa, 0);
    hold.add(batch(bb, 2_000, aa, 2_000, bb, 3_000), aa, 100);

    final Map<SeriesKey, List<Long>> applied = apply(hold);

    assertThat(applied)
        .containsOnlyKeys(aa, bb)
        .containsEntry(aa, List.of(1_000L, 2_000L))
        .containsEntry(bb, List.of(1_000L, 2_000L, 3_000L));
  }

  @Test
  void shouldSizeTheSlotsAsAHashMapGrowsItsTable() {
    assertThat(ReadingHold.slotBits(0)).isEqualTo(4);
    assertThat(ReadingHold.slotBits(12)).isEqualTo(4);
    assertThat(ReadingHold.slotBits(13)).isEqualTo(5);
    assertThat(ReadingHold.slotBits(24_576)).isEqualTo(15);
    assertThat(ReadingHold.slotBits(24_577)).isEqualTo(16);
  }

  private List<Bytes> heldKeys() {
    final List<Bytes> keys = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> all =
        log.range(WindowLogKeys.firstHeld(), WindowLogKeys.afterHeld())) {
      all.forEachRemaining(entry -> keys.add(entry.key));
    }
    return keys;
  }

  private static Map<SeriesKey, List<Long>> apply(final ReadingHold hold) {
    return apply(hold, 3);
  }

  /** What each series was handed, in the order the series came. */
  private static Map<SeriesKey, List<Long>> apply(
      final ReadingHold hold, final int seriesWithState) {
    final Map<SeriesKey, List<Long>> applied = new LinkedHashMap<>();
    hold.applyBySeries(
        seriesWithState,
        (series, readings) -> {
          assertThat(applied).doesNotContainKey(series); // each series once an apply
          final List<Long> times = new ArrayList<>();
          for (int i = 0; i < readings.size(); i++) {
            times.add(readings.timestamp(i));
          }
          applied.put(series, times);
        });
    return applied;
  }

  /** A repartition record's batch, as the aggregator gets it: series and time pairs. */
  private static PartitionBatch batch(final Object... seriesAndTimes) {
    final PartitionBatch batch = new PartitionBatch(0, 1, seriesAndTimes.length / 2);
    for (int i = 0; i < seriesAndTimes.length; i += 2) {
      final long time = ((Number) seriesAndTimes[i + 1]).longValue();
      batch.add(batch.startSeries((SeriesKey) seriesAndTimes[i]), time, time / 1000.0, null);
    }
    return read(batch);
  }

  /** {@code batch} as the aggregator reads it from the repartition topic. */
  private static PartitionBatch read(final PartitionBatch batch) {
    return new PartitionBatchSerde()
        .deserializer()
        .deserialize("repartition", new PartitionBatchSerde().serializer().serialize("t", batch));
  }

  private static KeyValueStore<Bytes, byte[]> store() {
    final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("log").get();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    return store;
  }
}
