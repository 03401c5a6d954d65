package io.bucketer.windows;

import io.bucketer.buckets.Measurement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Readings of one window of the finest granularity, in arrival order: the open tail that a window's
 * state carries, or a run sealed off it. Immutable; {@link #with} returns a longer copy.
 *
 * <p>A run read from a store may stay in the store's packed form ({@link Packed}) until its
 * readings are asked for: a reading costs a read of its window and a write of it, and adding it to
 * the packed bytes and writing those again spares unpacking and repacking the readings before it.
 */
public final class ReadingRun {

  public static final ReadingRun EMPTY = new ReadingRun(new long[0], new double[0]);

  /** Readings in a store's packed form, which can take one more reading without unpacking. */
  public interface Packed {

    int size();

    /** These readings and one more at the end, or null when the packing cannot take it as it is. */
    Packed with(Measurement measurement);

    /** Writes the readings, in arrival order, into arrays of {@link #size()}. */
    void unpackInto(long[] timestamps, double[] values);
  }

  private final Packed packed;
  // Unpacked on first use when the run was read packed; a run is used by one thread.
  private long[] timestamps;
  private double[] values;

  private ReadingRun(final long[] timestamps, final double[] values) {
    this.packed = null;
    this.timestamps = timestamps;
    this.values = values;
  }

  private ReadingRun(final Packed packed) {
    this.packed = packed;
  }

  /** A run of the readings {@code (timestamps[i], values[i])}; takes the arrays as they are. */
  public static ReadingRun of(final long[] timestamps, final double[] values) {
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException("timestamps and values differ in length");
    }
    return new ReadingRun(timestamps, values);
  }

  public static ReadingRun of(final Measurement measurement) {
    return EMPTY.with(measurement);
  }

  /** A run kept in a store's packed form until its readings are asked for. */
  public static ReadingRun packed(final Packed packed) {
    return new ReadingRun(packed);
  }

  /** The packed form this run was read in, if it was; null otherwise. */
  public Packed packedForm() {
    return packed;
  }

  /** This run with one more reading at its end. */
  public ReadingRun with(final Measurement measurement) {
    if (packed != null) {
      final Packed longer = packed.with(measurement);
      if (longer != null) {
        return new ReadingRun(longer);
      }
    }
    unpack();
    final long[] longer = Arrays.copyOf(timestamps, timestamps.length + 1);
    final double[] longerValues = Arrays.copyOf(values, values.length + 1);
    longer[timestamps.length] = measurement.timestamp();
    longerValues[values.length] = measurement.value();
    return new ReadingRun(longer, longerValues);
  }

  public int size() {
    return timestamps != null ? timestamps.length : packed.size();
  }

  public long timestamp(final int index) {
    unpack();
    return timestamps[index];
  }

  public double value(final int index) {
    unpack();
    return values[index];
  }

  /** Appends the readings with {@code from <= timestamp < to} to {@code into}, in arrival order. */
  public void collect(final long from, final long to, final List<Measurement> into) {
    unpack();
    for (int i = 0; i < timestamps.length; i++) {
      if (timestamps[i] >= from && timestamps[i] < to) {
        into.add(new Measurement(timestamps[i], values[i]));
      }
    }
  }

  public List<Measurement> measurements() {
    final List<Measurement> all = new ArrayList<>(size());
    collect(Long.MIN_VALUE, Long.MAX_VALUE, all);
    return all;
  }

  private void unpack() {
    if (timestamps == null) {
      final long[] unpackedTimes = new long[packed.size()];
      final double[] unpackedValues = new double[packed.size()];
      packed.unpackInto(unpackedTimes, unpackedValues);
      values = unpackedValues;
      timestamps = unpackedTimes;
    }
  }
}
