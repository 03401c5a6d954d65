package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * How readings reach the task that holds their series' state.
 *
 * <p>{@link BySeries}, the default, accepts any record key: every reading is re-keyed by series and
 * written to an internal topic of {@code series.partitions} partitions, which costs one more Kafka
 * record per reading but decouples the state from the input topic.
 *
 * <p>{@link BySensorKey} trusts the gateways' partitioning: records keyed by their sensor id and
 * placed by Kafka's default partitioner (murmur2 of the key's UTF-8 bytes, modulo the partition
 * count) already put every reading of a sensor on one input partition, so the state is kept per
 * input partition and nothing is written again. A reading found on another partition than the one
 * its sensor id maps to is dead-lettered ({@code wrong-partition}) rather than counted in a task
 * that does not hold its series. The state is laid out by the input topic's partition count, so
 * that count must not change while the deployment lives.
 */
public sealed interface InputPartitioning {

  /** Readings are repartitioned by series into {@code seriesPartitions} partitions. */
  record BySeries(int seriesPartitions) implements InputPartitioning {}

  /** Input keyed by sensor id, placed by Kafka's default partitioner over its partitions. */
  record BySensorKey(int inputPartitions) implements InputPartitioning {

    /** The partition Kafka's default partitioner gives a record keyed by {@code sensorId}. */
    public int partitionOf(final String sensorId) {
      return Utils.toPositive(Utils.murmur2(sensorId.getBytes(StandardCharsets.UTF_8)))
          % inputPartitions;
    }

    /** Finds a series' partition for interactive queries, as the gateways' producers place it. */
    public StreamPartitioner<SeriesKey, Object> streamPartitioner() {
      return (topic, series, value, partitions) ->
          Optional.of(Set.of(partitionOf(series.sensorId())));
    }
  }
}
