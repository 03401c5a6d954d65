package io.bucketer.topology;

import io.bucketer.buckets.Measurement;
import io.bucketer.windows.ReadingRun;
import java.nio.ByteBuffer;
import java.util.Arrays;
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

  /** The most bytes a zigzag varint of a long takes. */
  private static final int MAX_VARLONG_BYTES = 10;

  /** Not a scaled value: every one is smaller than 2^52 in magnitude. */
  private static final long NOT_EXACT = Long.MIN_VALUE;

  private ReadingRunCodec() {}

  /** A run ready to write: its scale chosen and its size known, so a buffer can be sized first. */
  static final class Encoding {

    private final int size;
    private final int scale;
    private final int bytes;
    private final byte[] times;
    private final byte[] values;

    private Encoding(final int size, final int scale, final byte[] times, final byte[] values) {
      this.size = size;
      this.scale = scale;
      this.times = times;
      this.values = values;
      this.bytes = ByteUtils.sizeOfUnsignedVarint(size) + 1 + times.length + values.length;
    }

    /** {@code run} with its timestamps counted from {@code base}. */
    static Encoding of(final ReadingRun run, final long base) {
      if (run.packedForm() instanceof PackedReadings packed && packed.base == base) {
        // Read packed from the same base, readings added at its end: its bytes are the encoding.
        return new Encoding(packed.size, packed.scale, packed.times, packed.values);
      }
      final long[] scaled = new long[run.size()];
      final int scale = chooseScale(run, scaled);
      final ByteBuffer times = ByteBuffer.allocate(run.size() * MAX_VARLONG_BYTES);
      long previousTime = base;
      for (int i = 0; i < run.size(); i++) {
        ByteUtils.writeVarlong(run.timestamp(i) - previousTime, times);
        previousTime = run.timestamp(i);
      }
      final ByteBuffer values =
          ByteBuffer.allocate(run.size() * (scale == RAW ? Double.BYTES : MAX_VARLONG_BYTES));
      long previousScaled = 0;
      for (int i = 0; i < run.size(); i++) {
        if (scale == RAW) {
          values.putDouble(run.value(i));
        } else {
          ByteUtils.writeVarlong(scaled[i] - previousScaled, values);
          previousScaled = scaled[i];
        }
      }
      return new Encoding(run.size(), scale, written(times), written(values));
    }

    /** Decimal places of the values as written, or 0xFF for raw doubles. */
    int scale() {
      return scale;
    }

    int bytes() {
      return bytes;
    }

    void writeTo(final ByteBuffer buffer) {
      ByteUtils.writeUnsignedVarint(size, buffer);
      buffer.put((byte) scale);
      buffer.put(times);
      buffer.put(values);
    }

    private static byte[] written(final ByteBuffer buffer) {
      return Arrays.copyOf(buffer.array(), buffer.position());
    }
  }

  /**
   * Reads a run written with timestamps counted from {@code base}. Its readings stay packed until
   * they are asked for, and a reading added to it is packed onto the end of its bytes.
   */
  static ReadingRun read(final ByteBuffer buffer, final long base) {
    return ReadingRun.packed(PackedReadings.read(buffer, base));
  }

  /**
   * Readings as {@link #read} found them: the bytes of their timestamps and of their values, and
   * the last of each, from which the next reading's differences are taken.
   */
  private static final class PackedReadings implements ReadingRun.Packed {

    private final int size;
    private final int scale;
    private final long base;
    private final byte[] times;
    private final byte[] values;
    private final long lastTime;
    private final long lastScaled;

    private PackedReadings(
        final int size,
        final int scale,
        final long base,
        final byte[] times,
        final byte[] values,
        final long lastTime,
        final long lastScaled) {
      this.size = size;
      this.scale = scale;
      this.base = base;
      this.times = times;
      this.values = values;
      this.lastTime = lastTime;
      this.lastScaled = lastScaled;
    }

    static PackedReadings read(final ByteBuffer buffer, final long base) {
      final int size = ByteUtils.readUnsignedVarint(buffer);
      final int scale = buffer.get() & 0xFF;
      final int timesStart = buffer.position();
      long time = base;
      for (int i = 0; i < size; i++) {
        time += ByteUtils.readVarlong(buffer);
      }
      final byte[] times = bytesBetween(buffer, timesStart);
      final int valuesStart = buffer.position();
      long scaled = 0;
      if (scale == RAW) {
        buffer.position(valuesStart + size * Double.BYTES);
      } else {
        for (int i = 0; i < size; i++) {
          scaled += ByteUtils.readVarlong(buffer);
        }
      }
      return new PackedReadings(
          size, scale, base, times, bytesBetween(buffer, valuesStart), time, scaled);
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public ReadingRun.Packed with(final Measurement measurement) {
      final long scaled = scale == RAW ? 0 : exactlyScaled(measurement.value(), scale);
      if (scaled == NOT_EXACT) {
        return null; // the run needs more decimal places, or raw doubles: it is packed afresh
      }
      final byte[] longerTimes = withVarlong(times, measurement.timestamp() - lastTime);
      final byte[] longerValues;
      if (scale == RAW) {
        longerValues = Arrays.copyOf(values, values.length + Double.BYTES);
        ByteBuffer.wrap(longerValues, values.length, Double.BYTES).putDouble(measurement.value());
      } else {
        longerValues = withVarlong(values, scaled - lastScaled);
      }
      return new PackedReadings(
          size + 1, scale, base, longerTimes, longerValues, measurement.timestamp(), scaled);
    }

    @Override
    public void unpackInto(final long[] timestamps, final double[] unpacked) {
      final ByteBuffer timeBytes = ByteBuffer.wrap(times);
      long time = base;
      for (int i = 0; i < size; i++) {
        time += ByteUtils.readVarlong(timeBytes);
        timestamps[i] = time;
      }
      final ByteBuffer valueBytes = ByteBuffer.wrap(values);
      long scaled = 0;
      for (int i = 0; i < size; i++) {
        if (scale == RAW) {
          unpacked[i] = valueBytes.getDouble();
        } else {
          scaled += ByteUtils.readVarlong(valueBytes);
          unpacked[i] = scaled / POWERS_OF_TEN[scale];
        }
      }
    }

    private static byte[] bytesBetween(final ByteBuffer buffer, final int start) {
      return Arrays.copyOfRange(
          buffer.array(), buffer.arrayOffset() + start, buffer.arrayOffset() + buffer.position());
    }

    private static byte[] withVarlong(final byte[] bytes, final long value) {
      final int size = ByteUtils.sizeOfVarlong(value);
      final byte[] longer = Arrays.copyOf(bytes, bytes.length + size);
      ByteUtils.writeVarlong(value, ByteBuffer.wrap(longer, bytes.length, size));
      return longer;
    }
  }

  /**
   * The fewest decimal places that hold every value of the run exactly, with {@code scaled} filled
   * with the values at that scale; or {@link #RAW}. One division per value, as a run's values
   * mostly share their places: only the values before the last raise of the scale are scaled again.
   */
  private static int chooseScale(final ReadingRun run, final long[] scaled) {
    int scale = 0;
    int raisedAt = 0;
    for (int i = 0; i < run.size(); i++) {
      long exact;
      while ((exact = exactlyScaled(run.value(i), scale)) == NOT_EXACT) {
        if (++scale > MAX_DECIMALS) {
          return RAW;
        }
        raisedAt = i;
      }
      scaled[i] = exact;
    }
    // A value exact at fewer places is almost always exact at more, but near 2^52 it need not be.
    for (int i = 0; i < raisedAt; i++) {
      if ((scaled[i] = exactlyScaled(run.value(i), scale)) == NOT_EXACT) {
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
