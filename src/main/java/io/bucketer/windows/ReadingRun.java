package io.bucketer.windows;

import io.bucketer.buckets.Measurement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Readings of one window of the finest granularity, in arrival order: the open tail that a window's
 * state carries, or a run sealed off it. Immutable to its users.
 *
 * <p>{@link #with} appends in amortised constant time, because the open windows' readings stay in
 * memory between commits ({@link WriteBehindWindows}) and a reading must not copy them. A run reads
 * only the first {@link #size} entries of arrays it may share with the runs appended to it;
 * appending writes in place only when nothing was appended past this run's end yet, and copies into
 * arrays twice as long otherwise. Only one stream thread appends; other threads read runs handed to
 * them safely ({@link PublishedWindows}).
 */
public final class ReadingRun {

  public static final ReadingRun EMPTY = new ReadingRun(new Readings(0), 0);

  /** The arrays a run and its longer successors share, and how much of them is in use. */
  private static final class Readings {
    final long[] timestamps;
    final double[] values;
    int used;

    Readings(final int capacity) {
      this.timestamps = new long[capacity];
      this.values = new double[capacity];
    }

    Readings(final long[] timestamps, final double[] values) {
      this.timestamps = timestamps;
      this.values = values;
      this.used = timestamps.length;
    }
  }

  private final Readings readings;
  private final int size;

  private ReadingRun(final Readings readings, final int size) {
    this.readings = readings;
    this.size = size;
  }

  /** A run of the readings {@code (timestamps[i], values[i])}; takes the arrays as they are. */
  public static ReadingRun of(final long[] timestamps, final double[] values) {
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException("timestamps and values differ in length");
    }
    return new ReadingRun(new Readings(timestamps, values), timestamps.length);
  }

  public static ReadingRun of(final Measurement measurement) {
    return EMPTY.with(measurement);
  }

  /** This run with one more reading at its end. */
  public ReadingRun with(final Measurement measurement) {
    Readings into = readings;
    if (size != into.used || size == into.timestamps.length) {
      into = new Readings(Math.max(4, 2 * size));
      System.arraycopy(readings.timestamps, 0, into.timestamps, 0, size);
      System.arraycopy(readings.values, 0, into.values, 0, size);
      into.used = size;
    }
    into.timestamps[size] = measurement.timestamp();
    into.values[size] = measurement.value();
    into.used = size + 1;
    return new ReadingRun(into, size + 1);
  }

  public int size() {
    return size;
  }

  /**
   * The run of this run's first {@code length} readings, on the same arrays: what a holder of this
   * run's arrays gets back when it kept only their length ({@link WindowValues}). Those readings
   * are never written again where the run reads them.
   */
  ReadingRun prefix(final int length) {
    if (length > readings.used) {
      throw new IndexOutOfBoundsException("a prefix of " + length + " of " + readings.used);
    }
    return length == size ? this : new ReadingRun(readings, length);
  }

  /** Whether {@code other} reads the same arrays as this run, whatever their lengths. */
  boolean sharesArraysWith(final ReadingRun other) {
    return other.readings == readings;
  }

  /** The position of the first reading at {@code timestamp}, or -1 when none is. */
  public int indexOf(final long timestamp) {
    final long[] timestamps = readings.timestamps;
    for (int i = 0; i < size; i++) {
      if (timestamps[i] == timestamp) {
        return i;
      }
    }
    return -1;
  }

  /** A copy of this run whose reading at {@code index} has {@code value} instead. */
  public ReadingRun withValueAt(final int index, final double value) {
    checked(index);
    final double[] values = Arrays.copyOf(readings.values, size);
    values[index] = value;
    return of(Arrays.copyOf(readings.timestamps, size), values);
  }

  /**
   * Whether this run begins with every reading of {@code prefix}, in order: a run appended to from
   * {@code prefix} does, found at once when it still shares the prefix's arrays.
   */
  public boolean startsWith(final ReadingRun prefix) {
    if (prefix.size > size) {
      return false;
    }
    if (prefix.readings == readings) {
      return true;
    }
    for (int i = 0; i < prefix.size; i++) {
      if (readings.timestamps[i] != prefix.readings.timestamps[i]
          || Double.doubleToRawLongBits(readings.values[i])
              != Double.doubleToRawLongBits(prefix.readings.values[i])) {
        return false;
      }
    }
    return true;
  }

  /** Readings the arrays behind this run have room for: what it holds in memory. */
  public int capacity() {
    return readings.timestamps.length;
  }

  public long timestamp(final int index) {
    return readings.timestamps[checked(index)];
  }

  public double value(final int index) {
    return readings.values[checked(index)];
  }

  /** Appends the readings with {@code from <= timestamp < to} to {@code into}, in arrival order. */
  public void collect(final long from, final long to, final List<Measurement> into) {
    final long[] timestamps = readings.timestamps;
    for (int i = 0; i < size; i++) {
      if (timestamps[i] >= from && timestamps[i] < to) {
        into.add(new Measurement(timestamps[i], readings.values[i]));
      }
    }
  }

  public List<Measurement> measurements() {
    final List<Measurement> all = new ArrayList<>(size);
    collect(Long.MIN_VALUE, Long.MAX_VALUE, all);
    return all;
  }

  private int checked(final int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException("reading " + index + " of a run of " + size);
    }
    return index;
  }

  @Override
  public String toString() {
    return "ReadingRun" + Arrays.toString(measurements().toArray());
  }
}
