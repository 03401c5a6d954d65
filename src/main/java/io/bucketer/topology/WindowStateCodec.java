package io.bucketer.topology;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.nio.ByteBuffer;

/**
 * The bytes of a window's state in the window stores, and of a sealed run of readings, shared by
 * the aggregator that writes them and the interactive queries that read them. A fixed layout rather
 * than Avro: a window is decoded and encoded again for every reading, and a schema is no help for a
 * value only this code reads.
 *
 * <pre>
 * state: [format u8 = 2][count i64][sum f64][min f64][max f64][first i64][first value f64]
 *        [last i64][last value f64][shift f64][shifted mean f64][m2 f64]
 *        [has offset u8][offset i32][closed u8][revision i32][sealed runs i32][run]
 * run:   [n i32] n x [timestamp i64][value f64]
 * </pre>
 *
 * <p>Format 1, written before the first and last values and the spread were kept, has no {@code
 * first value}, {@code last value}, {@code shift}, {@code shifted mean} or {@code m2}; it is still
 * read, so an upgrade keeps its open windows, whose documents then lack those fields ({@link
 * BucketStats#withoutSpread}).
 */
final class WindowStateCodec {

  private static final byte FORMAT = 2;
  private static final byte FORMAT_WITHOUT_SPREAD = 1;
  private static final int FIXED_BYTES = 1 + 8 * 11 + 1 + 4 + 1 + 4 + 4;

  private WindowStateCodec() {}

  static byte[] encode(final WindowState state) {
    final BucketStats stats = state.stats();
    final ByteBuffer buffer = ByteBuffer.allocate(FIXED_BYTES + runBytes(state.tail()));
    buffer.put(FORMAT);
    buffer.putLong(stats.count());
    buffer.putDouble(stats.sum());
    buffer.putDouble(stats.min());
    buffer.putDouble(stats.max());
    buffer.putLong(stats.first().timestamp());
    buffer.putDouble(stats.first().value());
    buffer.putLong(stats.last().timestamp());
    buffer.putDouble(stats.last().value());
    buffer.putDouble(stats.shift());
    buffer.putDouble(stats.shiftedMean());
    buffer.putDouble(stats.m2());
    buffer.put((byte) (stats.utcOffsetMinutes() == null ? 0 : 1));
    buffer.putInt(stats.utcOffsetMinutes() == null ? 0 : stats.utcOffsetMinutes());
    buffer.put((byte) (state.closed() ? 1 : 0));
    buffer.putInt(state.revision());
    buffer.putInt(state.sealedRuns());
    writeRun(state.tail(), buffer);
    return buffer.array();
  }

  static WindowState decode(final byte[] value) {
    final ByteBuffer buffer = ByteBuffer.wrap(value);
    final byte format = buffer.get();
    if (format != FORMAT && format != FORMAT_WITHOUT_SPREAD) {
      throw new IllegalStateException("window state in unknown format " + format);
    }
    final long count = buffer.getLong();
    final double sum = buffer.getDouble();
    final double min = buffer.getDouble();
    final double max = buffer.getDouble();
    final long firstTimestamp = buffer.getLong();
    final double firstValue = format == FORMAT ? buffer.getDouble() : Double.NaN;
    final long lastTimestamp = buffer.getLong();
    final double lastValue = format == FORMAT ? buffer.getDouble() : Double.NaN;
    final double shift = format == FORMAT ? buffer.getDouble() : 0;
    final double shiftedMean = format == FORMAT ? buffer.getDouble() : sum / count;
    final double m2 = format == FORMAT ? buffer.getDouble() : Double.NaN;
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
        readRun(buffer));
  }

  static byte[] encodeRun(final ReadingRun run) {
    final ByteBuffer buffer = ByteBuffer.allocate(runBytes(run));
    writeRun(run, buffer);
    return buffer.array();
  }

  static ReadingRun decodeRun(final byte[] value) {
    return readRun(ByteBuffer.wrap(value));
  }

  private static int runBytes(final ReadingRun run) {
    return 4 + run.size() * 16;
  }

  private static void writeRun(final ReadingRun run, final ByteBuffer buffer) {
    buffer.putInt(run.size());
    for (int i = 0; i < run.size(); i++) {
      buffer.putLong(run.timestamp(i));
      buffer.putDouble(run.value(i));
    }
  }

  private static ReadingRun readRun(final ByteBuffer buffer) {
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
