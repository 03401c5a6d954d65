package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.function.BiConsumer;

/**
 * What the bucket aggregator takes in one record: a batch of one series' readings when nothing is
 * repartitioned, or, from the repartition topic, the readings of many series one upstream task sent
 * to one partition in a commit. The aggregator walks either series by series itself: at live
 * traffic a repartition record holds one reading of each of thousands of series, and a Kafka
 * Streams forward for each would cost about as much as the reading's own aggregation.
 */
sealed interface AggregatorInput permits ReadingBatch, PartitionBatch {

  /**
   * Passes each series' readings to {@code each}, in the order they were gathered; a series the
   * value does not name is {@code recordKey}, the record's key.
   */
  void forEachSeries(SeriesKey recordKey, BiConsumer<SeriesKey, ReadingBatch> each);
}
