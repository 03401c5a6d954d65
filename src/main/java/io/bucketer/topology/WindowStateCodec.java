package io.bucketer.topology;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.nio.ByteBuffer;
import org.apache.kafka.common.utils.ByteUtils;

/**
 * The bytes of a window's state in the window stores, and of a sealed run of readings, shared by
 * the aggregator that writes them and the interactive queries that read them. Our own compact
 * layout rather than Avro: a window is decoded and encoded again for every reading, its bytes go to
 * RocksDB and to the changelog topic each time, and a schema is no help for a value only this code
 * reads.
 *
 * <pre>
 * state (format 4): [format u8 = 4][flags u8: 1 closed, 2 has offset, 4 shift is the first value,
 *        8 has quality]
 *        [count varlong][sum f64][min f64][max f64]
 *        [first timestamp varlong][first value f64][last timestamp - first varlong][last value f64]
 *        [shift f64, absent with flag 4][shifted mean f64][m2 f64]
 *        [offset varint, with flag 2][revision varint][sealed runs varint]
 *        [resends varlong][late readings varlong, both with flag 8]
 *        [tail: a run of {@link ReadingRunCodec}, timestamps from the first timestamp]
 * sealed run (format 3): [format u8 = 3][a run of {@link ReadingRunCodec}, timestamps from 0]
 * </pre>
 *
 * <p>A window that collapsed no resend and took no late reading, nearly every one, has no flag 8
 * and takes no more bytes than in format 3, which is format 4 without flag 8 (and is read as a
 * window without either).
 *
 * <p>Earlier builds wrote fixed-width layouts, still read so that an upgrade keeps its open
 * windows:
 *
 * <pre>
 * state (format 2): [format u8 = 2][count i64][sum f64][min f64][max f64][first i64]
 *        [first value f64][last i64][last value f64][shift f64][shifted mean f64][m2 f64]
 *        [has offset u8][offset i32][closed u8][revision i32][sealed runs i32][run]
 * run:   [n i32] n x [timestamp i64][value f64]   (a sealed run's first byte is 0: n is 64)
 * </pre>
 *
 * <p>Format 1, written before the first and last values and the spread were kept, has no {@code
 * first value}, {@code last value}, {@code shift}, {@code shifted mean} or {@code m2}; windows read
 * from it lack those fields in their documents ({@link BucketStats#withoutSpread}).
 */
final class WindowStateCodec {

  private static final byte FORMAT = 4;
  private static final byte FORMAT_WITHOUT_QUALITY = 3;
  private static final byte RUN_FORMAT = 3;
  private static final byte FORMAT_FIXED = 2;
  private static final byte FORMAT_WITHOUT_SPREAD = 1;
  private static final int CLOSED = 1;
  private static final int HAS_OFFSET = 2;
  private static final int SHIFT_IS_FIRST_VALUE = 4;
  private static final int HAS_QUALITY = 8;

  /** Format, flags and the doubles; the varints are added to it. */
  private static final int FIXED_BYTES = 2 + 9 * Double.BYTES;

  private WindowStateCodec() {}

  static byte[] encode(final WindowState state) {
    final BucketStats stats = state.stats();
    final long firstTimestamp = stats.first().timestamp();
    final long lastAfterFirst = stats.last().timestamp() - firstTimestamp;
    final boolean shiftIsFirstValue =
        Double.doubleToRawLongBits(stats.shift())
            == Double.doubleToRawLongBits(stats.first().value());
    final Integer offset = stats.utcOffsetMinutes();
    final ReadingRunCodec.Packed tail = ReadingRunCodec.Packed.of(state.tail(), firstTimestamp);
    final WindowQuality quality = state.quality();
    final boolean hasQuality = !quality.isNone();
    final int size =
        FIXED_BYTES
            - (shiftIsFirstValue ? Double.BYTES : 0)
            + ByteUtils.sizeOfVarlong(stats.count())
            + ByteUtils.sizeOfVarlong(firstTimestamp)
            + ByteUtils.sizeOfVarlong(lastAfterFirst)
            + (offset == null ? 0 : ByteUtils.sizeOfVarint(offset))
            + ByteUtils.sizeOfVarint(state.revision())
            + ByteUtils.sizeOfVarint(state.sealedRuns())
            + (hasQuality
                ? ByteUtils.sizeOfVarlong(quality.resends())
                    + ByteUtils.sizeOfVarlong(quality.lateReadings())
                : 0)
            + tail.bytes();
    final ByteBuffer buffer = ByteBuffer.allocate(size);
    buffer.put(FORMAT);
    buffer.put(
        (byte)
            ((state.closed() ? CLOSED : 0)
                | (offset == null ? 0 : HAS_OFFSET)
                | (shiftIsFirstValue ? SHIFT_IS_FIRST_VALUE : 0)
                | (hasQuality ? HAS_QUALITY : 0)));
    ByteUtils.writeVarlong(stats.count(), buffer);
    buffer.putDouble(stats.sum());
    buffer.putDouble(stats.min());
    buffer.putDouble(stats.max());
    ByteUtils.writeVarlong(firstTimestamp, buffer);
    buffer.putDouble(stats.first().value());
    ByteUtils.writeVarlong(lastAfterFirst, buffer);
    buffer.putDouble(stats.last().value());
    if (!shiftIsFirstValue) {
      buffer.putDouble(stats.shift());
    }
    buffer.putDouble(stats.shiftedMean());
    buffer.putDouble(stats.m2());
    if (offset != null) {
      ByteUtils.writeVarint(offset, buffer);
    }
    ByteUtils.writeVarint(state.revision(), buffer);
    ByteUtils.writeVarint(state.sealedRuns(), buffer);
    if (hasQuality) {
      ByteUtils.writeVarlong(quality.resends(), buffer);
      ByteUtils.writeVarlong(quality.lateReadings(), buffer);
    }
    tail.writeTo(buffer);
    return buffer.array();
  }

  static WindowState decode(final byte[] value) {
    final ByteBuffer buffer = ByteBuffer.wrap(value);
    final byte format = buffer.get();
    return switch (format) {
      case FORMAT, FORMAT_WITHOUT_QUALITY -> decodeCompact(buffer);
      case FORMAT_FIXED, FORMAT_WITHOUT_SPREAD -> decodeFixed(buffer, format == FORMAT_FIXED);
      default -> throw new IllegalStateException("window state in unknown format " + format);
    };
  }

  private static WindowState decodeCompact(final ByteBuffer buffer) {
    final int flags = buffer.get();
    final long count = ByteUtils.readVarlong(buffer);
    final double sum = buffer.getDouble();
    final double min = buffer.getDouble();
    final double max = buffer.getDouble();
    final long firstTimestamp = ByteUtils.readVarlong(buffer);
    final double firstValue = buffer.getDouble();
    final long lastTimestamp = firstTimestamp + ByteUtils.readVarlong(buffer);
    final double lastValue = buffer.getDouble();
    final double shift = (flags & SHIFT_IS_FIRST_VALUE) != 0 ? firstValue : buffer.getDouble();
    final double shiftedMean = buffer.getDouble();
    final double m2 = buffer.getDouble();
    final Integer offset = (flags & HAS_OFFSET) != 0 ? ByteUtils.readVarint(buffer) : null;
    final int revision = ByteUtils.readVarint(buffer);
    final int sealedRuns = ByteUtils.readVarint(buffer);
    final WindowQuality quality =
        (flags & HAS_QUALITY) != 0
            ? new WindowQuality(ByteUtils.readVarlong(buffer), ByteUtils.readVarlong(buffer))
            : WindowQuality.NONE;
    return new WindowState(
        new BucketStats(
            count,
            sum,
            min,
            max,
            new Measurement(firstTimestamp, firstValue),
            new Measurement(lastTimestamp, lastValue),
            shift,
            shiftedMean,
            m2,
            offset),
        (flags & CLOSED) != 0,
        revision,
        sealedRuns,
        ReadingRunCodec.read(buffer, firstTimestamp),
        quality);
  }

  private static WindowState decodeFixed(final ByteBuffer buffer, final boolean withSpread) {
    final long count = buffer.getLong();
    final double sum = buffer.getDouble();
    final double min = buffer.getDouble();
    final double max = buffer.getDouble();
    final long firstTimestamp = buffer.getLong();
    final double firstValue = withSpread ? buffer.getDouble() : Double.NaN;
    final long lastTimestamp = buffer.getLong();
    final double lastValue = withSpread ? buffer.getDouble() : Double.NaN;
    final double shift = withSpread ? buffer.getDouble() : 0;
    final double shiftedMean = withSpread ? buffer.getDouble() : sum / count;
    final double m2 = withSpread ? buffer.getDouble() : Double.NaN;
    final boolean hasOffset = buffer.get() != 0;
    final int offset = buffer.getInt();
    final boolean closed = buffer.get() != 0;
    final int revision = buffer.getInt();
    final int sealedRuns = buffer.getInt();
    return new WindowState(
        new BucketStats(
            count,
            sum,
            min,
            max,
            new Measurement(firstTimestamp, firstValue),
            new Measurement(lastTimestamp, lastValue),
            shift,
            shiftedMean,
            m2,
            hasOffset ? offset : null),
        closed,
        revision,
        sealedRuns,
        readFixedRun(buffer),
        WindowQuality.NONE);
  }

  static byte[] encodeRun(final ReadingRun run) {
    final ReadingRunCodec.Packed packed = ReadingRunCodec.Packed.of(run, 0);
    final ByteBuffer buffer = ByteBuffer.allocate(1 + packed.bytes());
    buffer.put(RUN_FORMAT);
    packed.writeTo(buffer);
    return buffer.array();
  }

  static ReadingRun decodeRun(final byte[] value) {
    final ByteBuffer buffer = ByteBuffer.wrap(value);
    if (value[0] == RUN_FORMAT) {
      buffer.get();
      return ReadingRunCodec.read(buffer, 0);
    }
    return readFixedRun(buffer);
  }

  private static ReadingRun readFixedRun(final ByteBuffer buffer) {
    final int size = buffer.getInt();
    final long[] timestamps = new long[size];
    final double[] values = new double[size];
    for (int i = 0; i < size; i++) {
      timestamps[i] = buffer.getLong();
      values[i] = buffer.getDouble();
    }
    return ReadingRun.of(timestamps, values);
  }
}
