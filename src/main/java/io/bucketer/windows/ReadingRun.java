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
 *
 * <p><b>Values are held in thousandths</b>, in an {@code int} each, while every one of the arrays'
 * is a number of thousandths that the division by a thousand gives back to the bit (a sensor's
 * reading of a few decimal places, within about two million either way): the values were the other
 * half of the open minutes' bytes. The first value that is not (more places, too large, -0.0, not a
 * number) moves the readings to arrays that hold the values whole.
 */
public final class ReadingRun {

  public static final ReadingRun EMPTY = new ReadingRun(Readings.of(0, 0, true, true), 0);

  /** The arrays a run and its longer successors share, and how much of them is in use. */
  private static final class Readings {
    /** What {@link #offsets} are counted from. */
    final long base;

    /** The timestamps less {@link #base}; null when {@link #whole} holds them. */
    final int[] offsets;

    /** The timestamps themselves, when an offset did not fit an {@code int}; else null. */
    final long[] whole;

    /** The values in thousandths; null when {@link #values} holds them. */
    final int[] thousandths;

    /** The values themselves, when one was not a whole number of thousandths; else null. */
    final double[] values;

    int used;

    private Readings(
        final long base,
        final int[] offsets,
        final long[] whole,
        final int[] thousandths,
        final double[] values) {
      this.base = base;
      this.offsets = offsets;
      this.whole = whole;
      this.thousandths = thousandths;
      this.values = values;
    }

    static Readings of(
        final long base, final int capacity, final boolean narrow, final boolean inThousandths) {
      return new Readings(
          narrow ? base : 0,
          narrow ? new int[capacity] : null,
          narrow ? null : new long[capacity],
          inThousandths ? new int[capacity] : null,
          inThousandths ? null : new double[capacity]);
    }

    int capacity() {
      return thousandths != null ? thousandths.length : values.length;
    }

    /**
     * Whether a reading at {@code timestamp} whose value is {@code thousandths} ({@link
     * #NOT_IN_THOUSANDTHS} when it is none) can be written here.
     */
    boolean holds(final long timestamp, final long thousandths) {
      return (offsets == null || fitsOffset(timestamp - base))
          && (this.thousandths == null || thousandths != NOT_IN_THOUSANDTHS);
    }

    long timestamp(final int index) {
      return offsets != null ? base + offsets[index] : whole[index];
    }

    double value(final int index) {
      return thousandths != null ? thousandths[index] / THOUSAND : values[index];
    }

    /** Writes a reading that {@link #holds}; {@code inThousandths} is its value's thousandths. */
    void set(final int index, final long timestamp, final double value, final long inThousandths) {
      if (offsets != null) {
        offsets[index] = (int) (timestamp - base);
      } else {
        whole[index] = timestamp;
      }
      if (thousandths != null) {
        thousandths[index] = (int) inThousandths;
      } else {
        values[index] = value;
      }
    }

    /**
     * A copy of the first {@code length} readings in arrays of {@code capacity}, able to hold the
     * reading {@code (next, nextThousandths)} as well: narrow while every timestamp fits, in
     * thousandths while every value is.
     */
    Readings copy(
        final int length, final int capacity, final long next, final long nextThousandths) {
      final long newBase = length == 0 ? next : base;
      final boolean narrow = offsets != null && (length == 0 || fitsOffset(next - base));
      final boolean inThousandths =
          (thousandths != null || length == 0) && nextThousandths != NOT_IN_THOUSANDTHS;
      final Readings copy = of(newBase, capacity, narrow, inThousandths);
      for (int i = 0; i < length; i++) {
        copy.set(i, timestamp(i), value(i), thousandths != null ? thousandths[i] : 0);
      }
      copy.used = length;
      return copy;
    }
  }

  /** A value's thousandths in {@link Readings} are divided by this. */
  private static final double THOUSAND = 1_000.0;

  /** Not a value's thousandths: every one fits an {@code int}. */
  private static final long NOT_IN_THOUSANDTHS = Long.MIN_VALUE;

  /**
   * {@code value} in thousandths, when dividing them by a thousand gives it back to the bit; else
   * {@link #NOT_IN_THOUSANDTHS}. A value parsed from a decimal of at most three places is the
   * double nearest that decimal, and so is the division's correctly rounded quotient.
   */
  static long thousandthsOf(final double value) {
    final double scaled = Math.rint(value * THOUSAND);
    if (!(scaled >= Integer.MIN_VALUE && scaled <= Integer.MAX_VALUE)) {
      return NOT_IN_THOUSANDTHS; // too large, infinite, or not a number
    }
    final int thousandths = (int) scaled;
    return Double.doubleToRawLongBits(thousandths / THOUSAND) == Double.doubleToRawLongBits(value)
        ? thousandths
        : NOT_IN_THOUSANDTHS;
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
      readings = new Readings(base, offsets, null, null, values);
    } else {
      readings = new Readings(0, null, timestamps, null, values);
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
    final long thousandths = thousandthsOf(value);
    Readings into = readings;
    if (size != into.used || size == into.capacity() || !into.holds(timestamp, thousandths)) {
      into = readings.copy(size, Math.max(4, 2 * size), timestamp, thousandths);
    }
    into.set(size, timestamp, value, thousandths);
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
    final long thousandths = thousandthsOf(value);
    final Readings copy = readings.copy(size, size, readings.timestamp(0), thousandths);
    copy.set(index, readings.timestamp(index), value, thousandths);
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
          || Double.doubleToRawLongBits(readings.value(i))
              != Double.doubleToRawLongBits(prefix.readings.value(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether the arrays behind this run hold the values in thousandths. */
  boolean valuesInThousandths() {
    return readings.thousandths != null;
  }

  /** Readings the arrays behind this run have room for: what it holds in memory. */
  public int capacity() {
    return readings.capacity();
  }

  public long timestamp(final int index) {
    return readings.timestamp(checked(index));
  }

  public double value(final int index) {
    return readings.value(checked(index));
  }

  /** Appends the readings with {@code from <= timestamp < to} to {@code into}, in arrival order. */
  public void collect(final long from, final long to, final List<Measurement> into) {
    for (int i = 0; i < size; i++) {
      final long timestamp = readings.timestamp(i);
      if (timestamp >= from && timestamp < to) {
        into.add(new Measurement(timestamp, readings.value(i)));
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
