package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.SeriesKey;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class SeriesPartitionerTest {

  /**
   * A series keeps the partition Kafka's producer gave the record keyed by it (its built-in
   * partitioner, which Kafka Streams' default partitioner also uses): its state stays in its task
   * across the change to batches of several series, and the query side, which finds a series' task
   * from its key, still finds it.
   */
  @Test
  void shouldPutEachSeriesOnThePartitionKafkaPutsItsKeyOn() {
    for (final int partitions : new int[] {1, 3, 12, 64}) {
      for (int n = 0; n < 2_000; n++) {
        final SeriesKey series =
            new SeriesKey("sensor-" + n, n % 3 == 0 ? null : "metric-" + n % 5);

        assertThat(SeriesPartitioner.partitionOf(series, partitions))
            .as("%s of %d", series, partitions)
            .isEqualTo(
                BuiltInPartitioner.partitionForKey(SeriesKeySerde.toBytes(series), partitions));
      }
    }
  }

  @Test
  void shouldSendABatchToThePartitionItWasGatheredFor() {
    final PartitionBatch batch = new PartitionBatch(4, 8, 1);
    batch.add(batch.startSeries(new SeriesKey("a", null)), 1, 1.0, null);

    assertThat(SeriesPartitioner.INSTANCE.partitions("t", batch.firstSeries(), batch, 8))
        .isEqualTo(Optional.of(Set.of(4)));
    assertThat(SeriesPartitioner.INSTANCE.partitions("t", batch.firstSeries(), batch, 1))
        .as("a topic of one partition takes every batch")
        .isEqualTo(Optional.of(Set.of(0)));
    assertThatThrownBy(() -> SeriesPartitioner.INSTANCE.partitions("t", null, batch, 12))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("series.partitions");
  }
}
