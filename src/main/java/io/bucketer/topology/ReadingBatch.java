package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import java.time.Instant;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Readings of one series, in the order they arrived, that the aggregator takes in one record: the
 * readings one upstream task gathered between two commits, which cross the repartition topic as one
 * record ({@link ReadingBatchSerde}), or a single reading when nothing is repartitioned. The series
 * itself is the record's key. Kept as columns of primitives: a reading costs no object of its own
 * while it waits. One class for both, so that the aggregator's code sees one type.
 *
 * <p>Filled by one thread and then handed on whole: {@link #add} is for whoever builds it.
 */
final class ReadingBatch implements AggregatorInput {

  /** Stands for a reading without a UTC offset: real offsets are within a day either way. */
  private static final int NO_OFFSET = Integer.MIN_VALUE;

  private long[] timestamps;
  private double[] values;
  private int[] utcOffsets;
  private int size;

  /** A batch of {@code reading} alone. */
  static ReadingBatch of(final Reading reading) {
    final ReadingBatch batch = new ReadingBatch(1);
    batch.add(
        reading.getTimestamp().toEpochMilli(), reading.getValue(), reading.getUtcOffsetMinutes());
    return batch;
  }

  ReadingBatch(final int capacity) {
    final int initial = Math.max(1, capacity);
    timestamps = new long[initial];
    values = new double[initial];
    utcOffsets = new int[initial];
  }

  /** Appends one reading. */
  void add(final long timestamp, final double value, final Integer utcOffsetMinutes) {
    if (utcOffsetMinutes == null) {
      append(timestamp, value, NO_OFFSET);
    } else {
      addWithUtcOffset(timestamp, value, utcOffsetMinutes);
    }
  }

  /** Appends one reading that carries a UTC offset: the decoders' path, which boxes nothing. */
  void addWithUtcOffset(final long timestamp, final double value, final int utcOffsetMinutes) {
    if (utcOffsetMinutes == NO_OFFSET) {
      throw new IllegalArgumentException("not a UTC offset: " + utcOffsetMinutes + " minutes");
    }
    append(timestamp, value, utcOffsetMinutes);
  }

  private void append(final long timestamp, final double value, final int utcOffset) {
    if (size == timestamps.length) {
      final int grown = size * 2;
      timestamps = Arrays.copyOf(timestamps, grown);
      values = Arrays.copyOf(values, grown);
      utcOffsets = Arrays.copyOf(utcOffsets, grown);
    }
    timestamps[size] = timestamp;
    values[size] = value;
    utcOffsets[size] = utcOffset;
    size++;
  }

  /** Empties it, keeping its room: one batch reused for series after series. */
  void clear() {
    size = 0;
  }

  /** The record's series: a batch never names its own. */
  @Override
  public void forEachSeries(
      final SeriesKey recordKey, final BiConsumer<SeriesKey, ReadingBatch> each) {
    each.accept(recordKey, this);
  }

  int size() {
    return size;
  }

  /** Epoch milliseconds of reading {@code index}. */
  long timestamp(final int index) {
    return timestamps[checked(index)];
  }

  double value(final int index) {
    return values[checked(index)];
  }

  /** The UTC offset of reading {@code index}, in minutes; null when its gateway sent none. */
  Integer utcOffsetMinutes(final int index) {
    return hasUtcOffset(index) ? utcOffsets[index] : null;
  }

  /**
   * Whether reading {@code index} carries a UTC offset. With {@link #utcOffsetMinutesAt}, for the
   * serdes, which write every reading of the repartition: boxing each reading's offset showed in a
   * live profile, and most real offsets (-300, 330) are outside the JVM's small-integer cache, so
   * each would be an object.
   */
  boolean hasUtcOffset(final int index) {
    return utcOffsets[checked(index)] != NO_OFFSET;
  }

  /** The UTC offset of reading {@code index}, in minutes, when {@link #hasUtcOffset} says so. */
  int utcOffsetMinutesAt(final int index) {
    return utcOffsets[checked(index)];
  }

  /**
   * Reading {@code index} whole, as one of {@code series}: for the rare path that hands a reading
   * on (the dead letter of a reading too late for its window).
   */
  Reading reading(final int index, final SeriesKey series) {
    return new Reading(
        series.sensorId(),
        Instant.ofEpochMilli(timestamp(index)),
        value(index),
        series.metric(),
        utcOffsetMinutes(index));
  }

  /** The latest of the readings' times: the batch's record timestamp. */
  long latestTimestamp() {
    long latest = Long.MIN_VALUE;
    for (int i = 0; i < size; i++) {
      latest = Math.max(latest, timestamps[i]);
    }
    return latest;
  }

  private int checked(final int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(index);
    }
    return index;
  }
}
