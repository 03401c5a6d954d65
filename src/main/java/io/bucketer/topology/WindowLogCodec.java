package io.bucketer.topology;

import io.bucketer.windows.ReadingRun;
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
 * entry (format 2): [format u8 = 2][changes varint] changes
 * change: [kind u8][series: {@link SeriesKeySerde}] and by kind:
 *   1 whole:       [state length varint][a window state]
 *   2 appended:    [flags u8: 1 closes, 2 has offset][offset varint, with flag 2]
 *                  [the readings as a {@link ReadingRunCodec} run, timestamps from the window start]
 *   3 deleted:     nothing
 *   4 run sealed:  [number varint][run length varint][a sealed run]
 *   5 run deleted: [number varint]
 * </pre>
 *
 * <p>Format 1 (still read) wrote an appended change's readings unpacked, each as [timestamp - the
 * previous one varlong][value f64] after [n varint]: about 10 bytes a reading where a packed run
 * takes 3. That mattered for the hour: a closing minute appends its readings to the hour's group,
 * whose entries stay in the log until the hour closes.
 */
final class WindowLogCodec {

  private static final byte FORMAT = 2;
  private static final byte UNPACKED_READINGS_FORMAT = 1;
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
        final ReadingRunCodec.Packed readings =
            ReadingRunCodec.Packed.of(
                ReadingRun.of(appended.timestamps(), appended.values()), windowStart);
        room(1 + series.length + 1 + 5 + readings.bytes());
        buffer.put(APPENDED).put(series);
        final Integer offset = appended.utcOffsetMinutes();
        buffer.put((byte) ((appended.closes() ? CLOSES : 0) | (offset == null ? 0 : HAS_OFFSET)));
        if (offset != null) {
          ByteUtils.writeVarint(offset, buffer);
        }
        readings.writeTo(buffer);
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
    if (format != FORMAT && format != UNPACKED_READINGS_FORMAT) {
      throw new IllegalStateException("window log entry in unknown format " + format);
    }
    final int count = ByteUtils.readVarint(buffer);
    final List<WindowChange> changes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      final byte kind = buffer.get();
      final int seriesStart = buffer.position();
      SeriesKeySerde.skip(buffer);
      final byte[] series = new byte[buffer.position() - seriesStart];
      buffer.get(seriesStart, series);
      changes.add(
          switch (kind) {
            case WHOLE -> new WindowChange.Whole(series, WindowStateCodec.decode(bytes(buffer)));
            case APPENDED -> appended(series, buffer, windowStart, format);
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
      final byte[] series, final ByteBuffer buffer, final long windowStart, final byte format) {
    final int flags = buffer.get();
    final Integer offset = (flags & HAS_OFFSET) != 0 ? ByteUtils.readVarint(buffer) : null;
    final long[] timestamps;
    final double[] values;
    if (format == UNPACKED_READINGS_FORMAT) {
      final int size = ByteUtils.readVarint(buffer);
      timestamps = new long[size];
      values = new double[size];
      long previous = windowStart;
      for (int i = 0; i < size; i++) {
        previous += ByteUtils.readVarlong(buffer);
        timestamps[i] = previous;
        values[i] = buffer.getDouble();
      }
    } else {
      final ReadingRun readings = ReadingRunCodec.read(buffer, windowStart);
      timestamps = new long[readings.size()];
      values = new double[readings.size()];
      for (int i = 0; i < readings.size(); i++) {
        timestamps[i] = readings.timestamp(i);
        values[i] = readings.value(i);
      }
    }
    return new WindowChange.Appended(series, (flags & CLOSES) != 0, offset, timestamps, values);
  }

  private static byte[] bytes(final ByteBuffer buffer) {
    final byte[] bytes = new byte[ByteUtils.readVarint(buffer)];
    buffer.get(bytes);
    return bytes;
  }
}
