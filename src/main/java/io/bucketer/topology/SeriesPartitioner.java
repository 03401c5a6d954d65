package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Where a series' readings go on the repartition topic: the partition Kafka's default partitioner
 * gives the series' key bytes ({@link SeriesKeySerde}), murmur2 of them modulo the partitions, the
 * same as when each record was keyed by its series. So a series stays on the partition, and its
 * windows in the task, that it had before readings of several series travelled in one record; and
 * the query side, which finds a series' task from its key ({@link SeriesOwnerLookup}), finds it.
 *
 * <p>As the repartition's partitioner, it sends a {@link PartitionBatch} to the partition it was
 * gathered for.
 */
final class SeriesPartitioner implements StreamPartitioner<SeriesKey, PartitionBatch> {

  private SeriesPartitioner() {}

  static final SeriesPartitioner INSTANCE = new SeriesPartitioner();

  /** The partition of {@code series} among {@code partitions}. */
  static int partitionOf(final SeriesKey series, final int partitions) {
    return partitionOf(SeriesKeySerde.toBytes(series), partitions);
  }

  /** The partition of the series encoded as {@code encodedKey} ({@link SeriesKeySerde#toBytes}). */
  static int partitionOf(final byte[] encodedKey, final int partitions) {
    // Kafka's BuiltInPartitioner.partitionForKey, written out: that class is not public API.
    return Utils.toPositive(Utils.murmur2(encodedKey)) % partitions;
  }

  /**
   * The partition {@code batch} was gathered for. A topic of one partition takes every batch
   * (Kafka's test driver makes every topic so); otherwise the topic must have the partitions the
   * batches were gathered among, which Kafka Streams sees to when it creates or checks the topic
   * ({@code series.partitions}).
   */
  @Override
  public Optional<Set<Integer>> partitions(
      final String topic, final SeriesKey key, final PartitionBatch batch, final int partitions) {
    if (partitions == 1) {
      return Optional.of(Set.of(0));
    }
    if (batch.partitions() != partitions) {
      throw new IllegalStateException(
          "readings gathered for "
              + batch.partitions()
              + " partitions of "
              + topic
              + ", which has "
              + partitions
              + ": series.partitions and the topic disagree");
    }
    return Optional.of(Set.of(batch.partition()));
  }
}
