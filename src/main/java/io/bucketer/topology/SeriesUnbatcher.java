package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hands the aggregator each series' readings of a repartition record ({@link PartitionBatch}) as a
 * record of that series, in the order the batch holds them, each timestamped with its latest
 * reading as the series' own record was before batches carried several series. A record of an
 * earlier format names its one series in its key.
 */
final class SeriesUnbatcher
    implements Processor<SeriesKey, PartitionBatch, SeriesKey, ReadingBatch> {

  private ProcessorContext<SeriesKey, ReadingBatch> context;

  @Override
  public void init(final ProcessorContext<SeriesKey, ReadingBatch> context) {
    this.context = context;
  }

  @Override
  public void process(final Record<SeriesKey, PartitionBatch> record) {
    record
        .value()
        .forEach(
            (series, readings) ->
                context.forward(
                    new Record<>(
                        series == null ? record.key() : series,
                        readings,
                        readings.latestTimestamp(),
                        record.headers())));
  }
}
