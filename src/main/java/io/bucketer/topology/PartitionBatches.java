package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The readings one upstream task holds back until its next commit, a {@link PartitionBatch} per
 * partition of the repartition topic ({@link SeriesPartitioner} picks a series' partition).
 * Bounded: a partition's batch is handed on once it holds {@code maxBatchReadings}, and every batch
 * once the task holds {@code maxHeldReadings}, so neither a busy partition nor a long commit
 * interval makes it grow without end.
 *
 * <p>A series' partition is worked out once per batch it is in, when its first reading comes (its
 * key encoded and hashed, {@link SeriesPartitioner}), not for every reading: each further reading
 * costs one look-up of the series. At live traffic that is the same (one reading of each series per
 * commit); in a backlog, where a commit holds dozens of each series' readings, it saves the key's
 * encoding and hash for all but the first. The batch keeps that encoding for its record, which
 * writes it as it is: encoding each key again for the record (counted, then written) took 6 % of
 * the stream thread at 100,000 live sensors.
 *
 * <p><b>Gathered, or written as they come.</b> Gathering pays where a commit brings several
 * readings of a series (a backlog: dozens): a record then carries each series' key once, and the
 * aggregator gets each series' readings together. At live traffic a commit brings one reading of
 * each series, so the look-up finds nothing, for every reading. So it watches how often a reading's
 * series was already gathered ({@link SeriesRepeats}): once a commit's readings seldom repeat a
 * series, the next commits' batches are written as the readings come ({@link
 * PartitionBatchWriter}), and every so often one commit gathers again, to look. Either way the
 * record has the same layout and the readings the same order; the aggregator groups a series' parts
 * itself when it holds readings ({@link ReadingHold}).
 */
final class PartitionBatches {

  private final int partitions;
  private final int maxBatchReadings;
  private final int maxHeldReadings;
  private final PartitionBatch[] batches;
  private final PartitionBatchWriter[] writers;
  private final SeriesRepeats repeats = new SeriesRepeats();

  /** Each series the batches hold, with its batch and its readings in it. */
  private final Map<SeriesKey, HeldSeries> heldSeries = new HashMap<>();

  /** Series each partition's last gathered batch held: the next one is sized for as many. */
  private final int[] lastSeries;

  /** Bytes each partition's last written batch took: the next one starts with as much room. */
  private final int[] lastBytes;

  private int held;

  PartitionBatches(final int partitions, final int maxBatchReadings, final int maxHeldReadings) {
    if (partitions < 1 || maxBatchReadings < 1 || maxHeldReadings < maxBatchReadings) {
      throw new IllegalArgumentException(
          partitions
              + " partitions, batches of at most "
              + maxBatchReadings
              + " readings, at most "
              + maxHeldReadings
              + " held in all");
    }
    this.partitions = partitions;
    this.maxBatchReadings = maxBatchReadings;
    this.maxHeldReadings = maxHeldReadings;
    this.batches = new PartitionBatch[partitions];
    this.writers = new PartitionBatchWriter[partitions];
    this.lastSeries = new int[partitions];
    this.lastBytes = new int[partitions];
  }

  /**
   * Adds one reading of {@code series}; passes to {@code ready} the batches that reached a bound,
   * this series' partition's alone when its batch is full, every batch when the task holds too many
   * readings.
   */
  void add(
      final SeriesKey series,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes,
      final Consumer<PartitionBatch> ready) {
    held++;
    if (repeats.gathering()) {
      gather(series, timestamp, value, utcOffsetMinutes, ready);
    } else {
      write(series, timestamp, value, utcOffsetMinutes, ready);
    }
    if (held >= maxHeldReadings) {
      drain(ready);
    }
  }

  private void gather(
      final SeriesKey series,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes,
      final Consumer<PartitionBatch> ready) {
    HeldSeries gathered = heldSeries.get(series);
    repeats.reading(gathered != null);
    if (gathered == null) {
      gathered = startSeries(series);
    }
    final PartitionBatch batch = gathered.batch();
    batch.add(gathered.readings(), timestamp, value, utcOffsetMinutes);
    if (batch.readings() >= maxBatchReadings) {
      batch.forEach((batchSeries, readings) -> heldSeries.remove(batchSeries));
      handOn(batch.partition(), ready);
    }
  }

  private void write(
      final SeriesKey series,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes,
      final Consumer<PartitionBatch> ready) {
    final byte[] encoded = SeriesKeySerde.toBytes(series);
    final int partition = SeriesPartitioner.partitionOf(encoded, partitions);
    PartitionBatchWriter writer = writers[partition];
    if (writer == null) {
      writer = new PartitionBatchWriter(partition, partitions, lastBytes[partition]);
      writers[partition] = writer;
    }
    writer.add(series, encoded, timestamp, value, utcOffsetMinutes);
    if (writer.readings() >= maxBatchReadings) {
      handOnWritten(partition, ready);
    }
  }

  private HeldSeries startSeries(final SeriesKey series) {
    final byte[] encoded = SeriesKeySerde.toBytes(series);
    final int partition = SeriesPartitioner.partitionOf(encoded, partitions);
    PartitionBatch batch = batches[partition];
    if (batch == null) {
      batch = new PartitionBatch(partition, partitions, lastSeries[partition]);
      batches[partition] = batch;
    }
    final HeldSeries gathered = new HeldSeries(batch, batch.startSeries(series, encoded));
    heldSeries.put(series, gathered);
    return gathered;
  }

  /**
   * Passes every batch to {@code ready}, by partition, and forgets them: the end of a commit's
   * batches, after which the next ones are gathered or written as {@link SeriesRepeats} says.
   */
  void drain(final Consumer<PartitionBatch> ready) {
    heldSeries.clear();
    for (int partition = 0; partition < partitions && held > 0; partition++) {
      if (batches[partition] != null) {
        handOn(partition, ready);
      }
      if (writers[partition] != null) {
        handOnWritten(partition, ready);
      }
    }
    repeats.batchesDrained();
  }

  private void handOn(final int partition, final Consumer<PartitionBatch> ready) {
    final PartitionBatch batch = batches[partition];
    batches[partition] = null;
    held -= batch.readings();
    lastSeries[partition] = batch.seriesCount();
    ready.accept(batch);
  }

  private void handOnWritten(final int partition, final Consumer<PartitionBatch> ready) {
    final PartitionBatchWriter writer = writers[partition];
    writers[partition] = null;
    held -= writer.readings();
    lastBytes[partition] = writer.bytes();
    ready.accept(writer.finish());
  }

  /** Forgets every batch: their readings will be read again from the input. */
  void clear() {
    Arrays.fill(batches, null);
    Arrays.fill(writers, null);
    heldSeries.clear();
    repeats.clear();
    held = 0;
  }

  /** Whether its next readings are gathered by series rather than written as they come. */
  boolean gathering() {
    return repeats.gathering();
  }

  /** Readings held, in all batches. */
  int held() {
    return held;
  }

  /** A series being gathered: the batch of its partition, and its readings there. */
  private record HeldSeries(PartitionBatch batch, ReadingBatch readings) {}
}
