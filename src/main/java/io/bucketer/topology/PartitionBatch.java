package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The readings one upstream task sends to one partition of the repartition topic between two
 * commits: a {@link ReadingBatch} per series, in the order the series first sent. One record
 * carries them all, so the repartition costs a record per partition and commit, not one per series:
 * at live traffic, where a commit holds one reading of each series, that is the difference between
 * about one record per reading and a few per thousand.
 *
 * <p>A record of an earlier format carried one series' batch, its series in the record's key: read
 * back, it is a batch of that one series with the series unknown here ({@link #ofKeyedSeries}),
 * which the reader takes from the key.
 *
 * <p>A batch read back in the current format keeps the bytes it was read from and decodes its
 * series only when first asked for them ({@link #encoded}): an aggregator that holds readings
 * before applying them ({@link ReadingHold}) logs those bytes as they are, and decodes them once,
 * at the apply.
 */
final class PartitionBatch implements AggregatorInput {

  /** A new series batch's room: a few readings; a batch doubles as it fills. */
  private static final int INITIAL_CAPACITY = 4;

  private int partition;
  private final int partitions;

  /**
   * Its series in the order they first sent. A list, not a map: the gatherer ({@link
   * PartitionBatches}) finds a series' readings itself, so a batch never looks a series up.
   */
  private final List<SeriesReadings> series;

  /** The bytes it was read from, until decoded (format 5 of {@link PartitionBatchSerde}). */
  private byte[] encoded;

  /** The readings {@link #encoded} holds, counted as its layout was checked. */
  private int encodedReadings;

  /**
   * Its first series, for a batch written here as its readings came ({@link #written}); null
   * otherwise. Such a batch also knows its latest time, so that sending it decodes nothing.
   */
  private SeriesKey writtenFirstSeries;

  private int readings;
  private long latestTimestamp = Long.MIN_VALUE;

  /**
   * @param partitions the partitions it was gathered among; 0 when read back (not sent again)
   * @param expectedSeries how many series it is sized for
   */
  PartitionBatch(final int partition, final int partitions, final int expectedSeries) {
    this.partition = partition;
    this.partitions = partitions;
    this.series = new ArrayList<>(Math.max(10, expectedSeries));
  }

  /** A record of an earlier format: one series' readings, the series in the record's key. */
  static PartitionBatch ofKeyedSeries(final ReadingBatch batch) {
    final PartitionBatch keyed = new PartitionBatch(-1, 0, 1);
    keyed.put(null, batch);
    return keyed;
  }

  /**
   * A batch read back from {@code value}, a record value of {@link PartitionBatchSerde}'s current
   * format holding {@code readings} readings, decoded when first walked.
   */
  static PartitionBatch encoded(final byte[] value, final int readings) {
    final PartitionBatch batch = new PartitionBatch(-1, 0, 0);
    batch.encoded = value;
    batch.encodedReadings = readings;
    return batch;
  }

  /**
   * A batch {@link PartitionBatchWriter} wrote: {@code value} is its record's value, holding {@code
   * readings} readings of which {@code firstSeries} came first and {@code latestTimestamp} is the
   * latest.
   */
  static PartitionBatch written(
      final int partition,
      final int partitions,
      final byte[] value,
      final int readings,
      final SeriesKey firstSeries,
      final long latestTimestamp) {
    final PartitionBatch batch = new PartitionBatch(partition, partitions, 0);
    batch.encoded = value;
    batch.encodedReadings = readings;
    batch.writtenFirstSeries = firstSeries;
    batch.latestTimestamp = latestTimestamp;
    return batch;
  }

  /** The readings of the record value it was read from, decoded or not. */
  int encodedReadings() {
    return encodedReadings;
  }

  /** The record value it was read from while not yet decoded, else null. */
  byte[] encodedValue() {
    return encoded;
  }

  private void decodeIfEncoded() {
    if (encoded != null) {
      final byte[] value = encoded;
      encoded = null;
      PartitionBatchSerde.decodeInto(value, this);
    }
  }

  /**
   * Starts the readings of {@code key}, a series it does not hold yet, and returns them, for {@link
   * #add}: the gatherer keeps them at hand and adds each further reading without a look-up.
   */
  ReadingBatch startSeries(final SeriesKey key) {
    return startSeries(key, SeriesKeySerde.toBytes(key));
  }

  /**
   * As {@link #startSeries(SeriesKey)}, with the key's encoding ({@link SeriesKeySerde#toBytes}),
   * which the gatherer worked out to find the series' partition: the batch's record writes it as it
   * is, rather than encoding the key again.
   */
  ReadingBatch startSeries(final SeriesKey key, final byte[] encodedKey) {
    final ReadingBatch batch = new ReadingBatch(INITIAL_CAPACITY);
    series.add(new SeriesReadings(key, encodedKey, batch));
    return batch;
  }

  /** Adds one reading to {@code seriesReadings}, one of its series' from {@link #startSeries}. */
  void add(
      final ReadingBatch seriesReadings,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes) {
    seriesReadings.add(timestamp, value, utcOffsetMinutes);
    readings++;
    latestTimestamp = Math.max(latestTimestamp, timestamp);
  }

  /** Sets the partition it was gathered for, as its record says: for the decoder. */
  void readPartition(final int gatheredFor) {
    this.partition = gatheredFor;
  }

  /** Adds a series' readings, decoded; {@code key} null for the record's key. */
  void put(final SeriesKey key, final ReadingBatch batch) {
    series.add(new SeriesReadings(key, null, batch));
    readings += batch.size();
    latestTimestamp = Math.max(latestTimestamp, batch.latestTimestamp());
  }

  /** The partition it was gathered for; -1 for a record of an earlier format. */
  int partition() {
    if (partition < 0) {
      decodeIfEncoded();
    }
    return partition;
  }

  /** The partitions it was gathered among; 0 for a batch read back. */
  int partitions() {
    return partitions;
  }

  /** Readings in all its series. */
  int readings() {
    return encoded != null ? encodedReadings : readings;
  }

  /** Series it holds readings of. */
  int seriesCount() {
    decodeIfEncoded();
    return series.size();
  }

  /** The latest of its readings' times: its record's timestamp. */
  long latestTimestamp() {
    if (writtenFirstSeries == null) {
      decodeIfEncoded();
    }
    return latestTimestamp;
  }

  @Override
  public void forEachSeries(
      final SeriesKey recordKey, final BiConsumer<SeriesKey, ReadingBatch> each) {
    decodeIfEncoded();
    for (final SeriesReadings one : series) {
      each.accept(one.key() == null ? recordKey : one.key(), one.readings());
    }
  }

  /** One of its series, for the record's key; null when it holds none. */
  SeriesKey firstSeries() {
    if (writtenFirstSeries != null) {
      return writtenFirstSeries;
    }
    decodeIfEncoded();
    return series.isEmpty() ? null : series.get(0).key();
  }

  /**
   * Passes each series' batch to {@code each}, in the order the series first sent; a null series is
   * the record's key (a record of an earlier format).
   */
  void forEach(final BiConsumer<SeriesKey, ReadingBatch> each) {
    decodeIfEncoded();
    for (final SeriesReadings one : series) {
      each.accept(one.key(), one.readings());
    }
  }

  /**
   * Passes each series' encoded key ({@link SeriesKeySerde#toBytes}) and batch to {@code each}, in
   * the order the series first sent: what its record carries. Only for a batch gathered here, whose
   * every series has its key.
   */
  void forEachEncoded(final BiConsumer<byte[], ReadingBatch> each) {
    decodeIfEncoded();
    for (final SeriesReadings one : series) {
      each.accept(
          one.encodedKey() != null ? one.encodedKey() : SeriesKeySerde.toBytes(one.key()),
          one.readings());
    }
  }

  /**
   * One series' readings; a null key for the record's key (a record of an earlier format), and a
   * null encoded key for one read back.
   */
  private record SeriesReadings(SeriesKey key, byte[] encodedKey, ReadingBatch readings) {}
}
