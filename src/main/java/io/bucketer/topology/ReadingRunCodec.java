package io.bucketer.topology;

import io.bucketer.windows.ReadingRun;
import java.nio.ByteBuffer;
import org.apache.kafka.common.utils.ByteUtils;

/**
 * A run of readings packed the way time-series engines pack a column (Gorilla, MongoDB's
 * BSONColumn): each timestamp as the zigzag varint of its difference from the one before, and the
 * values, when each is a decimal of at most {@value #MAX_DECIMALS} places, as zigzag varints of the
 * differences of their scaled integers; otherwise as raw doubles. A window's readings are written
 * again with every reading that joins it, to RocksDB and to its changelog topic, so their size is
 * paid per reading: a 1 Hz sensor's reading of {@code 21.37} takes 3 bytes here instead of 16.
 *
 * <pre>
 * run: [n varint][scale u8: decimal places, or 0xFF for raw doubles]
 *      n x [timestamp - previous varlong]            (previous: the base the caller gives)
 *      n x [scaled value - previous varlong] | n x [value f64]   (previous scaled: 0)
 * </pre>
 *
 * <p>No library packs a column of readings into a byte buffer without also taking over the storage
 * format (Parquet, ORC, Arrow), so this is our own. A value is written scaled only when dividing
 * its scaled integer by the same power of ten gives back the very same double, so decoding is
 * exact.
 */
final class ReadingRunCodec {

  static final int MAX_DECIMALS = 6;
  private static final int RAW = 0xFF;
  private static final double[] POWERS_OF_TEN = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};

  /** Beyond this a scaled value may no longer be an exact integer in a double. */
  private static final double LARGEST_EXACT_INTEGER = 0x1p52;

  /** Not a scaled value: every one is smaller than 2^52 in magnitude. */
  private static final long NOT_EXACT = Long.MIN_VALUE;

  private ReadingRunCodec() {}

  /** A run ready to write: its scale chosen and its size known, so a buffer can be sized first. */
  static final class Packed {

    private final ReadingRun run;
    private final int from;
    private final long base;
    private final int scale;
    private final long[] scaled;
    private final int bytes;

    private Packed(
        final ReadingRun run,
        final int from,
        final long base,
        final int scale,
        final long[] scaled,
        final int bytes) {
      this.run = run;
      this.from = from;
      this.base = base;
      this.scale = scale;
      this.scaled = scaled;
      this.bytes = bytes;
    }

    /** {@code run} with its timestamps counted from {@code base}. */
    static Packed of(final ReadingRun run, final long base) {
      return of(run, 0, base);
    }

    /**
     * The readings of {@code run} from position {@code from} on, as a run of their own, with their
     * timestamps counted from {@code base}: readings appended to a window, read where they are.
     */
    static Packed of(final ReadingRun run, final int from, final long base) {
      final int size = run.size() - from;
      final long[] scaled = new long[size];
      final int scale = chooseScale(run, from, scaled);
      int bytes = ByteUtils.sizeOfUnsignedVarint(size) + 1;
      long previousTime = base;
      long previousScaled = 0;
      for (int i = 0; i < size; i++) {
        bytes += ByteUtils.sizeOfVarlong(run.timestamp(from + i) - previousTime);
        previousTime = run.timestamp(from + i);
        if (scale == RAW) {
          bytes += Double.BYTES;
        } else {
          bytes += ByteUtils.sizeOfVarlong(scaled[i] - previousScaled);
          previousScaled = scaled[i];
        }
      }
      return new Packed(run, from, base, scale, scaled, bytes);
    }

    /** Decimal places of the values as written, or 0xFF for raw doubles. */
    int scale() {
      return scale;
    }

    int bytes() {
      return bytes;
    }

    void writeTo(final ByteBuffer buffer) {
      final int size = run.size() - from;
      ByteUtils.writeUnsignedVarint(size, buffer);
      buffer.put((byte) scale);
      long previousTime = base;
      for (int i = from; i < run.size(); i++) {
        ByteUtils.writeVarlong(run.timestamp(i) - previousTime, buffer);
        previousTime = run.timestamp(i);
      }
      long previousScaled = 0;
      for (int i = 0; i < size; i++) {
        if (scale == RAW) {
          buffer.putDouble(run.value(from + i));
        } else {
          ByteUtils.writeVarlong(scaled[i] - previousScaled, buffer);
          previousScaled = scaled[i];
        }
      }
    }
  }

  static ReadingRun read(final ByteBuffer buffer, final long base) {
    final int size = ByteUtils.readUnsignedVarint(buffer);
    final long[] timestamps = new long[size];
    final double[] values = new double[size];
    readReadings(buffer, base, size, timestamps, values);
    return ReadingRun.of(timestamps, values);
  }

  /**
   * Reads a run into {@code into}'s arrays, grown to its size if need be, and returns its size: for
   * a reader that goes through many runs and keeps none (the window log's replay).
   */
  static int readInto(final ByteBuffer buffer, final long base, final ReadingArrays into) {
    final int size = ByteUtils.readUnsignedVarint(buffer);
    into.ensure(size);
    readReadings(buffer, base, size, into.timestamps, into.values);
    return size;
  }

  /** Arrays a reader fills again for each run it reads, growing them when a run is longer. */
  static final class ReadingArrays {
    long[] timestamps = new long[8];
    double[] values = new double[8];

    void ensure(final int size) {
      if (timestamps.length < size) {
        timestamps = new long[Math.max(size, 2 * timestamps.length)];
        values = new double[timestamps.length];
      }
    }
  }

  private static void readReadings(
      final ByteBuffer buffer,
      final long base,
      final int size,
      final long[] timestamps,
      final double[] values) {
    final int scale = buffer.get() & 0xFF;
    long time = base;
    for (int i = 0; i < size; i++) {
      time += ByteUtils.readVarlong(buffer);
      timestamps[i] = time;
    }
    long scaled = 0;
    for (int i = 0; i < size; i++) {
      if (scale == RAW) {
        values[i] = buffer.getDouble();
      } else {
        scaled += ByteUtils.readVarlong(buffer);
        values[i] = scaled / POWERS_OF_TEN[scale];
      }
    }
  }

  /**
   * The fewest decimal places that hold every value of the run from {@code from} on exactly, with
   * {@code scaled} (as long as those) filled with the values at that scale; or {@link #RAW}. One
   * division per value, as a run's values mostly share their places: only the values before the
   * last raise of the scale are scaled again.
   */
  private static int chooseScale(final ReadingRun run, final int from, final long[] scaled) {
    int scale = 0;
    int raisedAt = 0;
    for (int i = 0; i < scaled.length; i++) {
      long exact;
      while ((exact = exactlyScaled(run.value(from + i), scale)) == NOT_EXACT) {
        if (++scale > MAX_DECIMALS) {
          return RAW;
        }
        raisedAt = i;
      }
      scaled[i] = exact;
    }
    // A value exact at fewer places is almost always exact at more, but near 2^52 it need not be.
    for (int i = 0; i < raisedAt; i++) {
      if ((scaled[i] = exactlyScaled(run.value(from + i), scale)) == NOT_EXACT) {
        return RAW;
      }
    }
    return scale;
  }

  /** {@code value} times 10^scale if dividing that integer by 10^scale gives back {@code value}. */
  private static long exactlyScaled(final double value, final int scale) {
    final double scaled = value * POWERS_OF_TEN[scale];
    if (!(Math.abs(scaled) < LARGEST_EXACT_INTEGER)) {
      return NOT_EXACT; // too large, infinite or NaN
    }
    final long integer = Math.round(scaled);
    // Compared as bits: -0.0 and 0.0 are different readings.
    return Double.doubleToRawLongBits(integer / POWERS_OF_TEN[scale])
            == Double.doubleToRawLongBits(value)
        ? integer
        : NOT_EXACT;
  }
}
