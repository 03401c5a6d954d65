package io.bucketer.windows;

import io.bucketer.buckets.Measurement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Readings of one window of the finest granularity, in arrival order: the open tail that a window's
 * state carries, or a run sealed off it. Immutable; {@link #with} returns a longer copy, which
 * costs what re-encoding the state costs anyway.
 */
public final class ReadingRun {

  public static final ReadingRun EMPTY = new ReadingRun(new long[0], new double[0]);

  private final long[] timestamps;
  private final double[] values;

  private ReadingRun(final long[] timestamps, final double[] values) {
    this.timestamps = timestamps;
    this.values = values;
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

  /** This run with one more reading at its end. */
  public ReadingRun with(final Measurement measurement) {
    final long[] longer = Arrays.copyOf(timestamps, timestamps.length + 1);
    final double[] longerValues = Arrays.copyOf(values, values.length + 1);
    longer[timestamps.length] = measurement.timestamp();
    longerValues[values.length] = measurement.value();
    return new ReadingRun(longer, longerValues);
  }

  public int size() {
    return timestamps.length;
  }

  public long timestamp(final int index) {
    return timestamps[index];
  }

  public double value(final int index) {
    return values[index];
  }

  /** Appends the readings with {@code from <= timestamp < to} to {@code into}, in arrival order. */
  public void collect(final long from, final long to, final List<Measurement> into) {
    for (int i = 0; i < timestamps.length; i++) {
      if (timestamps[i] >= from && timestamps[i] < to) {
        into.add(new Measurement(timestamps[i], values[i]));
      }
    }
  }

  public List<Measurement> measurements() {
    final List<Measurement> all = new ArrayList<>(timestamps.length);
    collect(Long.MIN_VALUE, Long.MAX_VALUE, all);
    return all;
  }
}
