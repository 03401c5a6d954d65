package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import java.nio.ByteBuffer;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the window log store and of its census. An entry's key is {@code [1][granularity size
 * i64][window start i64, sign flipped][sequence i64][chunk u16]}, so one group's entries are one
 * contiguous range in the order they were written; {@code [0]} holds the sequence of the last
 * commit that changed windows but wrote no entry (it only released groups). The census, local, keys
 * each group {@code [1][size][start]} and holds the sequence its windows were last brought to under
 * {@code [0]}.
 *
 * <p>Readings held before they are applied ({@link ReadingHold}) are logged under {@code [2][hold
 * sequence i64][chunk u16]}, after every group: a range over the groups never meets them.
 */
final class WindowLogKeys {

  /** The key of a sequence: in the log, see above; in the census, the local windows'. */
  static final Bytes SEQUENCE = Bytes.wrap(new byte[] {0});

  private static final byte GROUP = 1;
  private static final byte HELD = 2;
  private static final int HELD_BYTES = 1 + Long.BYTES + Short.BYTES;
  private static final int GROUP_BYTES = 1 + 2 * Long.BYTES;
  private static final int ENTRY_BYTES = GROUP_BYTES + Long.BYTES + Short.BYTES;

  private WindowLogKeys() {}

  /** The windows of one granularity that start at one time: what a log entry holds changes of. */
  record Group(Granularity granularity, long start) {}

  static Bytes group(final Group group) {
    return Bytes.wrap(groupBuffer(group, GROUP_BYTES).array());
  }

  static Bytes entry(final Group group, final long sequence, final int chunk) {
    final ByteBuffer buffer = groupBuffer(group, ENTRY_BYTES);
    buffer.putLong(sequence);
    buffer.putShort((short) chunk);
    return Bytes.wrap(buffer.array());
  }

  /** The first and last possible entry keys of a group. */
  static Bytes firstEntry(final Group group) {
    return entry(group, 0, 0); // sequences start at 1
  }

  static Bytes lastEntry(final Group group) {
    final ByteBuffer buffer = groupBuffer(group, ENTRY_BYTES);
    buffer.putLong(-1L).putShort((short) -1);
    return Bytes.wrap(buffer.array());
  }

  /** The first key after every entry and group key: a range to it from {@code [1]} holds them. */
  static Bytes firstGroup() {
    return Bytes.wrap(new byte[] {GROUP});
  }

  static Bytes afterGroups() {
    return Bytes.wrap(new byte[] {GROUP + 1});
  }

  /** The first key after every entry of {@code group}. */
  static Bytes afterGroup(final Group group) {
    final ByteBuffer buffer = ByteBuffer.allocate(ENTRY_BYTES + 1);
    buffer.put(lastEntry(group).get());
    return Bytes.wrap(buffer.array());
  }

  /** The key of chunk {@code chunk} of the readings held in commit {@code sequence} of the hold. */
  static Bytes held(final long sequence, final int chunk) {
    return Bytes.wrap(
        ByteBuffer.allocate(HELD_BYTES)
            .put(HELD)
            .putLong(sequence)
            .putShort((short) chunk)
            .array());
  }

  /** The first key of held readings, and the first key after them all. */
  static Bytes firstHeld() {
    return Bytes.wrap(new byte[] {HELD});
  }

  static Bytes afterHeld() {
    return Bytes.wrap(new byte[] {HELD + 1});
  }

  /** The hold sequence of a key of held readings. */
  static long heldSequenceOf(final Bytes heldKey) {
    return ByteBuffer.wrap(heldKey.get(), 1, Long.BYTES).getLong();
  }

  static long sizeOf(final Bytes key) {
    return ByteBuffer.wrap(key.get(), 1, Long.BYTES).getLong();
  }

  static long startOf(final Bytes key) {
    return ByteBuffer.wrap(key.get(), 1 + Long.BYTES, Long.BYTES).getLong() ^ Long.MIN_VALUE;
  }

  static long sequenceOf(final Bytes entryKey) {
    return ByteBuffer.wrap(entryKey.get(), GROUP_BYTES, Long.BYTES).getLong();
  }

  static byte[] sequenceValue(final long sequence) {
    return ByteBuffer.allocate(Long.BYTES).putLong(sequence).array();
  }

  static long sequenceOf(final byte[] value) {
    return value == null ? 0 : ByteBuffer.wrap(value).getLong();
  }

  private static ByteBuffer groupBuffer(final Group group, final int bytes) {
    final ByteBuffer buffer = ByteBuffer.allocate(bytes);
    buffer.put(GROUP);
    buffer.putLong(group.granularity().sizeMillis());
    buffer.putLong(group.start() ^ Long.MIN_VALUE);
    return buffer;
  }
}
