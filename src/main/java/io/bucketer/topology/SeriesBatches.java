package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The readings one upstream task holds back until its next commit, a {@link ReadingBatch} per
 * series, in the order the series first sent. Bounded: a series' batch is handed on once it holds
 * {@code maxBatchReadings}, and every batch once the task holds {@code maxHeldReadings}, so neither
 * a busy sensor nor a long commit interval makes it grow without end.
 */
final class SeriesBatches {

  /** A new batch's room: a few readings; a batch doubles as it fills. */
  private static final int INITIAL_CAPACITY = 8;

  private final int maxBatchReadings;
  private final int maxHeldReadings;
  private final Map<SeriesKey, ReadingBatch> batches = new LinkedHashMap<>();
  private int held;

  SeriesBatches(final int maxBatchReadings, final int maxHeldReadings) {
    if (maxBatchReadings < 1 || maxHeldReadings < maxBatchReadings) {
      throw new IllegalArgumentException(
          "batches of at most "
              + maxBatchReadings
              + " readings, at most "
              + maxHeldReadings
              + " held in all");
    }
    this.maxBatchReadings = maxBatchReadings;
    this.maxHeldReadings = maxHeldReadings;
  }

  /**
   * Adds one reading of {@code series}; passes to {@code ready} the batches that reached a bound,
   * this series' alone when its batch is full, every batch when the task holds too many readings.
   */
  void add(
      final SeriesKey series,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes,
      final BiConsumer<SeriesKey, ReadingBatch> ready) {
    ReadingBatch batch = batches.get(series);
    if (batch == null) {
      batch = new ReadingBatch(INITIAL_CAPACITY);
      batches.put(series, batch);
    }
    batch.add(timestamp, value, utcOffsetMinutes);
    held++;
    if (batch.size() >= maxBatchReadings) {
      batches.remove(series);
      held -= batch.size();
      ready.accept(series, batch);
    } else if (held >= maxHeldReadings) {
      drain(ready);
    }
  }

  /**
   * Passes every batch to {@code ready}, in the order their series first sent, and forgets them.
   */
  void drain(final BiConsumer<SeriesKey, ReadingBatch> ready) {
    if (batches.isEmpty()) {
      return;
    }
    batches.forEach(ready);
    clear();
  }

  /** Forgets every batch: their readings will be read again from the input. */
  void clear() {
    batches.clear();
    held = 0;
  }

  /** Readings held, in all batches. */
  int held() {
    return held;
  }
}
