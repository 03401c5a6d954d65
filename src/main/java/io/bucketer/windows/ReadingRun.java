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
 *
 * <p><b>Timestamps are held as offsets</b> from the first reading's, in an {@code int} each: a
 * run's readings lie within one window of the finest granularity, and the open minutes' readings
 * are the largest part of the live heap at a live fleet's size (a third of it at 100,000 series).
 * Halving their timestamps took a fifth off the collector's CPU there, most of it in young
 * collections that copy fewer bytes, and 8 to 18 MiB off the heap after collections
 * (docs/benchmarks.md). Arrays whose readings span more than an {@code int} of milliseconds (about
 * 24 days) hold the timestamps whole instead.
 */
public final class ReadingRun {

  public static final ReadingRun EMPTY = new ReadingRun(Readings.narrow(0, 0), 0);

  /** The arrays a run and its longer successors share, and how much of them is in use. */
  private static final class Readings {
    /** What {@link #offsets} are counted from. */
    final long base;

    /** The timestamps less {@link #base}; null when {@link #whole} holds them. */
    final int[] offsets;

    /** The timestamps themselves, when an offset did not fit an {@code int}; else null. */
    final long[] whole;

    final double[] values;
    int used;

    private Readings(
        final long base, final int[] offsets, final long[] whole, final double[] values) {
      this.base = base;
      this.offsets = offsets;
      this.whole = whole;
      this.values = values;
    }

    static Readings narrow(final long base, final int capacity) {
      return new Readings(base, new int[capacity], null, new double[capacity]);
    }

    static Readings whole(final int capacity) {
      return new Readings(0, null, new long[capacity], new double[capacity]);
    }

    /** Whether {@code timestamp} can be written here. */
    boolean holds(final long timestamp) {
      return offsets == null || fitsOffset(timestamp - base);
    }

    long timestamp(final int index) {
      return offsets != null ? base + offsets[index] : whole[index];
    }

    void set(final int index, final long timestamp, final double value) {
      if (offsets != null) {
        offsets[index] = (int) (timestamp - base);
      } else {
        whole[index] = timestamp;
      }
      values[index] = value;
    }

    /**
     * A copy of the first {@code length} readings in arrays of {@code capacity}, able to hold
     * {@code next} as well: narrow while every timestamp fits.
     */
    Readings copy(final int length, final int capacity, final long next) {
      final long newBase = length == 0 ? next : base;
      final Readings copy =
          offsets != null && (length == 0 || holds(next))
              ? narrow(newBase, capacity)
              : whole(capacity);
      for (int i = 0; i < length; i++) {
        copy.set(i, timestamp(i), values[i]);
      }
      copy.used = length;
      return copy;
    }
  }

  private final Readings readings;
  private final int size;

  private ReadingRun(final Readings readings, final int size) {
    this.readings = readings;
    this.size = size;
  }

  /** A run of the readings {@code (timestamps[i], values[i])}; takes the values' array as it is. */
  public static ReadingRun of(final long[] timestamps, final double[] values) {
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException("timestamps and values differ in length");
    }
    final long base = timestamps.length == 0 ? 0 : timestamps[0];
    boolean narrow = true;
    for (final long timestamp : timestamps) {
      narrow &= fitsOffset(timestamp - base);
    }
    final Readings readings;
    if (narrow) {
      final int[] offsets = new int[timestamps.length];
      for (int i = 0; i < timestamps.length; i++) {
        offsets[i] = (int) (timestamps[i] - base);
      }
      readings = new Readings(base, offsets, null, values);
    } else {
      readings = new Readings(0, null, timestamps, values);
    }
    readings.used = timestamps.length;
    return new ReadingRun(readings, timestamps.length);
  }

  public static ReadingRun of(final Measurement measurement) {
    return EMPTY.with(measurement);
  }

  /** Bytes a run holds each timestamp in when its readings lie within {@code spanMillis}. */
  static int timestampBytes(final long spanMillis) {
    return fitsOffset(spanMillis) ? Integer.BYTES : Long.BYTES;
  }

  /**
   * Whether a timestamp's difference from a base fits an {@code int}. The difference wraps when the
   * two are far apart, and so does the sum that turns it back into the timestamp: a difference that
   * fits gives back the timestamp exactly either way.
   */
  private static boolean fitsOffset(final long difference) {
    return difference == (int) difference;
  }

  /** This run with one more reading at its end. */
  public ReadingRun with(final Measurement measurement) {
    return with(measurement.timestamp(), measurement.value());
  }

  /** This run with the reading {@code (timestamp, value)} at its end. */
  public ReadingRun with(final long timestamp, final double value) {
    Readings into = readings;
    if (size != into.used || size == into.values.length || !into.holds(timestamp)) {
      into = readings.copy(size, Math.max(4, 2 * size), timestamp);
    }
    into.set(size, timestamp, value);
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
    final int[] offsets = readings.offsets;
    if (offsets == null) {
      final long[] whole = readings.whole;
      for (int i = 0; i < size; i++) {
        if (whole[i] == timestamp) {
          return i;
        }
      }
      return -1;
    }
    final long difference = timestamp - readings.base;
    if (!fitsOffset(difference)) {
      return -1; // every reading here is within an int of the base
    }
    final int offset = (int) difference;
    for (int i = 0; i < size; i++) {
      if (offsets[i] == offset) {
        return i;
      }
    }
    return -1;
  }

  /** A copy of this run whose reading at {@code index} has {@code value} instead. */
  public ReadingRun withValueAt(final int index, final double value) {
    checked(index);
    final Readings copy = readings.copy(size, size, readings.timestamp(0));
    copy.values[index] = value;
    return new ReadingRun(copy, size);
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
      if (readings.timestamp(i) != prefix.readings.timestamp(i)
          || Double.doubleToRawLongBits(readings.values[i])
              != Double.doubleToRawLongBits(prefix.readings.values[i])) {
        return false;
      }
    }
    return true;
  }

  /** Readings the arrays behind this run have room for: what it holds in memory. */
  public int capacity() {
    return readings.values.length;
  }

  public long timestamp(final int index) {
    return readings.timestamp(checked(index));
  }

  public double value(final int index) {
    return readings.values[checked(index)];
  }

  /** Appends the readings with {@code from <= timestamp < to} to {@code into}, in arrival order. */
  public void collect(final long from, final long to, final List<Measurement> into) {
    for (int i = 0; i < size; i++) {
      final long timestamp = readings.timestamp(i);
      if (timestamp >= from && timestamp < to) {
        into.add(new Measurement(timestamp, readings.values[i]));
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
