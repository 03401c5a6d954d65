package io.bucketer.topology;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.ByteUtils;

/**
 * The bytes of a window log entry: the changes of one group (a granularity and a window start) in
 * one commit, in the order they were made. Our own compact layout, as for the window state ({@link
 * WindowStateCodec}, which a whole window reuses): only this code reads it, and at live traffic its
 * size per reading is what the log costs the cluster.
 *
 * <pre>
 * entry (format 1): [format u8 = 1][changes varint] changes
 * change: [kind u8][series: {@link SeriesKeySerde}] and by kind:
 *   1 whole:       [state length varint][a window state]
 *   2 appended:    [flags u8: 1 closes, 2 has offset][offset varint, with flag 2][n varint]
 *                  n x [timestamp - the previous one (the window start for the first) varlong]
 *                      [value f64]
 *   3 deleted:     nothing
 *   4 run sealed:  [number varint][run length varint][a sealed run]
 *   5 run deleted: [number varint]
 * </pre>
 */
final class WindowLogCodec {

  private static final byte FORMAT = 1;
  private static final byte WHOLE = 1;
  private static final byte APPENDED = 2;
  private static final byte DELETED = 3;
  private static final byte RUN_SEALED = 4;
  private static final byte RUN_DELETED = 5;
  private static final int CLOSES = 1;
  private static final int HAS_OFFSET = 2;

  private WindowLogCodec() {}

  /** An entry being written, in a buffer that grows. */
  static final class Writer {
    private final long windowStart;
    private ByteBuffer buffer = ByteBuffer.allocate(256);
    private int changes;

    Writer(final long windowStart) {
      this.windowStart = windowStart;
    }

    int changes() {
      return changes;
    }

    /** Bytes written so far. */
    int size() {
      return buffer.position();
    }

    void add(final WindowChange change) {
      changes++;
      final byte[] series = change.series();
      if (change instanceof WindowChange.Whole whole) {
        final byte[] state = WindowStateCodec.encode(whole.state());
        room(1 + series.length + 5 + state.length);
        buffer.put(WHOLE).put(series);
        ByteUtils.writeVarint(state.length, buffer);
        buffer.put(state);
      } else if (change instanceof WindowChange.Appended appended) {
        final long[] timestamps = appended.timestamps();
        room(1 + series.length + 1 + 5 + 5 + timestamps.length * (10 + Double.BYTES));
        buffer.put(APPENDED).put(series);
        final Integer offset = appended.utcOffsetMinutes();
        buffer.put((byte) ((appended.closes() ? CLOSES : 0) | (offset == null ? 0 : HAS_OFFSET)));
        if (offset != null) {
          ByteUtils.writeVarint(offset, buffer);
        }
        ByteUtils.writeVarint(timestamps.length, buffer);
        long previous = windowStart;
        for (int i = 0; i < timestamps.length; i++) {
          ByteUtils.writeVarlong(timestamps[i] - previous, buffer);
          buffer.putDouble(appended.values()[i]);
          previous = timestamps[i];
        }
      } else if (change instanceof WindowChange.Deleted) {
        room(1 + series.length);
        buffer.put(DELETED).put(series);
      } else if (change instanceof WindowChange.RunSealed sealed) {
        final byte[] run = WindowStateCodec.encodeRun(sealed.run());
        room(1 + series.length + 10 + run.length);
        buffer.put(RUN_SEALED).put(series);
        ByteUtils.writeVarint(sealed.number(), buffer);
        ByteUtils.writeVarint(run.length, buffer);
        buffer.put(run);
      } else {
        final WindowChange.RunDeleted deleted = (WindowChange.RunDeleted) change;
        room(1 + series.length + 5);
        buffer.put(RUN_DELETED).put(series);
        ByteUtils.writeVarint(deleted.number(), buffer);
      }
    }

    private void room(final int bytes) {
      if (buffer.remaining() < bytes) {
        final ByteBuffer grown =
            ByteBuffer.allocate(Math.max(2 * buffer.capacity(), buffer.position() + bytes));
        buffer.flip();
        grown.put(buffer);
        buffer = grown;
      }
    }

    /** The entry's bytes. */
    byte[] toBytes() {
      final ByteBuffer entry =
          ByteBuffer.allocate(1 + ByteUtils.sizeOfVarint(changes) + buffer.position());
      entry.put(FORMAT);
      ByteUtils.writeVarint(changes, entry);
      entry.put(buffer.array(), 0, buffer.position());
      return entry.array();
    }
  }

  /** The changes of an entry of the group of windows starting at {@code windowStart}. */
  static List<WindowChange> decode(final byte[] entry, final long windowStart) {
    final ByteBuffer buffer = ByteBuffer.wrap(entry);
    final byte format = buffer.get();
    if (format != FORMAT) {
      throw new IllegalStateException("window log entry in unknown format " + format);
    }
    final int count = ByteUtils.readVarint(buffer);
    final List<WindowChange> changes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      final byte kind = buffer.get();
      final int seriesStart = buffer.position();
      SeriesKeySerde.read(buffer);
      final byte[] series = new byte[buffer.position() - seriesStart];
      buffer.get(seriesStart, series);
      changes.add(
          switch (kind) {
            case WHOLE -> new WindowChange.Whole(series, WindowStateCodec.decode(bytes(buffer)));
            case APPENDED -> appended(series, buffer, windowStart);
            case DELETED -> new WindowChange.Deleted(series);
            case RUN_SEALED ->
                new WindowChange.RunSealed(
                    series,
                    ByteUtils.readVarint(buffer),
                    WindowStateCodec.decodeRun(bytes(buffer)));
            case RUN_DELETED -> new WindowChange.RunDeleted(series, ByteUtils.readVarint(buffer));
            default -> throw new IllegalStateException("window log change of unknown kind " + kind);
          });
    }
    return changes;
  }

  private static WindowChange appended(
      final byte[] series, final ByteBuffer buffer, final long windowStart) {
    final int flags = buffer.get();
    final Integer offset = (flags & HAS_OFFSET) != 0 ? ByteUtils.readVarint(buffer) : null;
    final int size = ByteUtils.readVarint(buffer);
    final long[] timestamps = new long[size];
    final double[] values = new double[size];
    long previous = windowStart;
    for (int i = 0; i < size; i++) {
      previous += ByteUtils.readVarlong(buffer);
      timestamps[i] = previous;
      values[i] = buffer.getDouble();
    }
    return new WindowChange.Appended(series, (flags & CLOSES) != 0, offset, timestamps, values);
  }

  private static byte[] bytes(final ByteBuffer buffer) {
    final byte[] bytes = new byte[ByteUtils.readVarint(buffer)];
    buffer.get(bytes);
    return bytes;
  }
}
