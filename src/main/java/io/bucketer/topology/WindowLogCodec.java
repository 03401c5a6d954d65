package io.bucketer.topology;

import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
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
      final byte[] series = change.series();
      if (change instanceof WindowChange.Appended appended) {
        addAppended(
            series,
            appended.closes(),
            appended.utcOffsetMinutes(),
            ReadingRun.of(appended.timestamps(), appended.values()),
            0);
        return;
      }
      changes++;
      if (change instanceof WindowChange.Whole whole) {
        final byte[] state = WindowStateCodec.encode(whole.state());
        room(1 + series.length + 5 + state.length);
        buffer.put(WHOLE).put(series);
        ByteUtils.writeVarint(state.length, buffer);
        buffer.put(state);
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

    /**
     * Adds the change of readings appended to a window: those of {@code readings} from position
     * {@code from} on, each added to its sums with {@code utcOffsetMinutes}, then closed if {@code
     * closes}. Read where they are, not copied into a change first.
     */
    void addAppended(
        final byte[] series,
        final boolean closes,
        final Integer utcOffsetMinutes,
        final ReadingRun readings,
        final int from) {
      changes++;
      final ReadingRunCodec.Packed packed = ReadingRunCodec.Packed.of(readings, from, windowStart);
      room(1 + series.length + 1 + 5 + packed.bytes());
      buffer.put(APPENDED).put(series);
      buffer.put((byte) ((closes ? CLOSES : 0) | (utcOffsetMinutes == null ? 0 : HAS_OFFSET)));
      if (utcOffsetMinutes != null) {
        ByteUtils.writeVarint(utcOffsetMinutes, buffer);
      }
      packed.writeTo(buffer);
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

  /**
   * What an entry holds, told change by change in its order: a replay goes through every reading of
   * a group when it compacts it, and an object per change (with its readings copied out) was the
   * largest share of the processor's allocation in a profile at 100,000 live sensors.
   */
  interface ChangeVisitor {
    void whole(byte[] series, WindowState state);

    /**
     * Readings appended to the window: the first {@code count} of {@code timestamps} and {@code
     * values}, arrays the decoder fills again for the next change, so read them during the call.
     */
    void appended(
        byte[] series,
        boolean closes,
        Integer utcOffsetMinutes,
        long[] timestamps,
        double[] values,
        int count);

    void deleted(byte[] series);

    void runSealed(byte[] series, int number, ReadingRun run);

    void runDeleted(byte[] series, int number);
  }

  /**
   * The changes of an entry of the group of windows starting at {@code windowStart}, as objects.
   */
  static List<WindowChange> decode(final byte[] entry, final long windowStart) {
    final List<WindowChange> changes = new ArrayList<>();
    decode(
        entry,
        windowStart,
        new ChangeVisitor() {
          @Override
          public void whole(final byte[] series, final WindowState state) {
            changes.add(new WindowChange.Whole(series, state));
          }

          @Override
          public void appended(
              final byte[] series,
              final boolean closes,
              final Integer utcOffsetMinutes,
              final long[] timestamps,
              final double[] values,
              final int count) {
            changes.add(
                new WindowChange.Appended(
                    series,
                    closes,
                    utcOffsetMinutes,
                    Arrays.copyOf(timestamps, count),
                    Arrays.copyOf(values, count)));
          }

          @Override
          public void deleted(final byte[] series) {
            changes.add(new WindowChange.Deleted(series));
          }

          @Override
          public void runSealed(final byte[] series, final int number, final ReadingRun run) {
            changes.add(new WindowChange.RunSealed(series, number, run));
          }

          @Override
          public void runDeleted(final byte[] series, final int number) {
            changes.add(new WindowChange.RunDeleted(series, number));
          }
        });
    return changes;
  }

  /** Tells {@code visitor} the changes of an entry of the group starting at {@code windowStart}. */
  static void decode(final byte[] entry, final long windowStart, final ChangeVisitor visitor) {
    final ByteBuffer buffer = ByteBuffer.wrap(entry);
    final byte format = buffer.get();
    if (format != FORMAT && format != UNPACKED_READINGS_FORMAT) {
      throw new IllegalStateException("window log entry in unknown format " + format);
    }
    final int count = ByteUtils.readVarint(buffer);
    final ReadingRunCodec.ReadingArrays readings = new ReadingRunCodec.ReadingArrays();
    for (int i = 0; i < count; i++) {
      final byte kind = buffer.get();
      final int seriesStart = buffer.position();
      SeriesKeySerde.skip(buffer);
      final byte[] series = new byte[buffer.position() - seriesStart];
      buffer.get(seriesStart, series);
      switch (kind) {
        case WHOLE -> visitor.whole(series, WindowStateCodec.decode(bytes(buffer)));
        case APPENDED -> appended(series, buffer, windowStart, format, readings, visitor);
        case DELETED -> visitor.deleted(series);
        case RUN_SEALED ->
            visitor.runSealed(
                series, ByteUtils.readVarint(buffer), WindowStateCodec.decodeRun(bytes(buffer)));
        case RUN_DELETED -> visitor.runDeleted(series, ByteUtils.readVarint(buffer));
        default -> throw new IllegalStateException("window log change of unknown kind " + kind);
      }
    }
  }

  private static void appended(
      final byte[] series,
      final ByteBuffer buffer,
      final long windowStart,
      final byte format,
      final ReadingRunCodec.ReadingArrays readings,
      final ChangeVisitor visitor) {
    final int flags = buffer.get();
    final Integer offset = (flags & HAS_OFFSET) != 0 ? ByteUtils.readVarint(buffer) : null;
    final int size;
    if (format == UNPACKED_READINGS_FORMAT) {
      size = ByteUtils.readVarint(buffer);
      readings.ensure(size);
      long previous = windowStart;
      for (int i = 0; i < size; i++) {
        previous += ByteUtils.readVarlong(buffer);
        readings.timestamps[i] = previous;
        readings.values[i] = buffer.getDouble();
      }
    } else {
      size = ReadingRunCodec.readInto(buffer, windowStart, readings);
    }
    visitor.appended(
        series, (flags & CLOSES) != 0, offset, readings.timestamps, readings.values, size);
  }

  private static byte[] bytes(final ByteBuffer buffer) {
    final byte[] bytes = new byte[ByteUtils.readVarint(buffer)];
    buffer.get(bytes);
    return bytes;
  }
}
