package io.bucketer.topology;

import java.util.Arrays;

/**
 * Readings of one series gathered between two commits, in arrival order, that cross the repartition
 * topic as one record ({@link ReadingBatchSerde}). Kept as columns of primitives: a reading costs
 * no object of its own while it waits.
 *
 * <p>Filled by one thread and then handed on whole: {@link #add} is for whoever builds it.
 */
final class ReadingBatch implements SeriesReadings {

  /** Stands for a reading without a UTC offset: real offsets are within a day either way. */
  private static final int NO_OFFSET = Integer.MIN_VALUE;

  private long[] timestamps;
  private double[] values;
  private int[] utcOffsets;
  private int size;

  ReadingBatch(final int capacity) {
    final int initial = Math.max(1, capacity);
    timestamps = new long[initial];
    values = new double[initial];
    utcOffsets = new int[initial];
  }

  /** Appends one reading. */
  void add(final long timestamp, final double value, final Integer utcOffsetMinutes) {
    if (utcOffsetMinutes != null && utcOffsetMinutes == NO_OFFSET) {
      throw new IllegalArgumentException("not a UTC offset: " + utcOffsetMinutes + " minutes");
    }
    if (size == timestamps.length) {
      final int grown = size * 2;
      timestamps = Arrays.copyOf(timestamps, grown);
      values = Arrays.copyOf(values, grown);
      utcOffsets = Arrays.copyOf(utcOffsets, grown);
    }
    timestamps[size] = timestamp;
    values[size] = value;
    utcOffsets[size] = utcOffsetMinutes == null ? NO_OFFSET : utcOffsetMinutes;
    size++;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public long timestamp(final int index) {
    return timestamps[checked(index)];
  }

  @Override
  public double value(final int index) {
    return values[checked(index)];
  }

  @Override
  public Integer utcOffsetMinutes(final int index) {
    final int offset = utcOffsets[checked(index)];
    return offset == NO_OFFSET ? null : offset;
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
