package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One partition's batch written straight into its record's value as its readings come ({@link
 * PartitionBatchSerde}'s current format), each reading a part of its own: its series' key, a count
 * of one, the reading. The reader takes the same parts whether or not a series' readings were
 * gathered into one, in the order they came.
 *
 * <p>What {@link PartitionBatches} uses while the readings' series do not repeat within a commit,
 * as at live traffic: gathering each series' readings first would look up every reading's series to
 * find none gathered (a hash map of the commit's series, 7 % of the stream thread at 100,000 live
 * sensors), make a few objects per series and walk them all again to encode the record; written as
 * they come, the readings cost no look-up and no per-series object, and the serializer one copy.
 */
final class PartitionBatchWriter {

  /** The least room a new batch starts with; it doubles as it fills. */
  private static final int INITIAL_BYTES = 256;

  /** Where the header keeps the count of parts, after the format byte and the partition. */
  private static final int PARTS_AT = 1 + Integer.BYTES;

  private final int partition;
  private final int partitions;
  private ByteBuffer value;
  private int readings;
  private SeriesKey firstSeries;
  private long latestTimestamp = Long.MIN_VALUE;

  /**
   * @param partitions the partitions it is written among
   * @param expectedBytes the room it starts with: its partition's last batch's size
   */
  PartitionBatchWriter(final int partition, final int partitions, final int expectedBytes) {
    this.partition = partition;
    this.partitions = partitions;
    this.value = ByteBuffer.allocate(Math.max(INITIAL_BYTES, expectedBytes));
    value.put(PartitionBatchSerde.format()).putInt(partition).putInt(0);
  }

  /** Writes one reading of {@code series}, whose key {@link SeriesKeySerde} encoded as given. */
  void add(
      final SeriesKey series,
      final byte[] encodedKey,
      final long timestamp,
      final double reading,
      final Integer utcOffsetMinutes) {
    ensureRoom(encodedKey.length + Integer.BYTES + ReadingSerde.readingBytes(utcOffsetMinutes));
    value.put(encodedKey).putInt(1);
    ReadingSerde.putReading(value, timestamp, reading, utcOffsetMinutes);
    if (firstSeries == null) {
      firstSeries = series;
    }
    readings++;
    latestTimestamp = Math.max(latestTimestamp, timestamp);
  }

  private void ensureRoom(final int bytes) {
    if (value.remaining() < bytes) {
      final int needed = value.position() + bytes;
      value = ByteBuffer.allocate(Math.max(needed, 2 * value.capacity())).put(value.flip());
    }
  }

  int readings() {
    return readings;
  }

  /** The bytes written so far: its record value's size. */
  int bytes() {
    return value.position();
  }

  /** The batch written, its record's value complete: one part per reading. */
  PartitionBatch finish() {
    value.putInt(PARTS_AT, readings);
    return PartitionBatch.written(
        partition,
        partitions,
        Arrays.copyOf(value.array(), value.position()),
        readings,
        firstSeries,
        latestTimestamp);
  }
}
