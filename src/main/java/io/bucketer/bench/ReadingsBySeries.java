package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topology.ReadingSerde;
import io.bucketer.topology.SeriesKeySerde;
import io.bucketer.topology.StreamsTopics;
import java.util.function.Supplier;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The steps every Kafka Streams design that groups readings by series takes before its own work, as
 * bucketer takes them: decode the registry-framed value, key it by series, carry the reading's
 * event time on the record, and repartition by series with bucketer's serdes. The floor stops here;
 * the windowed aggregate goes on from here.
 */
final class ReadingsBySeries {

  /**
   * The repartition's name; its topic is {@code <application.id>-readings-by-series-repartition}.
   */
  static final String REPARTITION = "readings-by-series";

  private ReadingsBySeries() {}

  static KStream<SeriesKey, Reading> stream(
      final StreamsBuilder builder,
      final String topic,
      final Supplier<ReadingDecoder> decoders,
      final int seriesPartitions) {
    return builder.stream(topic, StreamsTopics.consumed(BucketerTopics.input(topic)))
        .process(() -> new KeyBySeries(decoders.get()), Named.as("decode-readings"))
        .repartition(
            Repartitioned.<SeriesKey, Reading>as(REPARTITION)
                .withKeySerde(new SeriesKeySerde())
                .withValueSerde(new ReadingSerde())
                .withNumberOfPartitions(seriesPartitions));
  }

  static String repartitionTopic(final String applicationId) {
    return applicationId + "-" + REPARTITION + "-repartition";
  }

  /**
   * The record leaves with the reading's timestamp: the input records carry the time they were
   * produced, and windows downstream must be those of event time, as bucketer's are.
   */
  private static final class KeyBySeries
      extends ContextualProcessor<byte[], byte[], SeriesKey, Reading> {

    private final ReadingDecoder decoder;

    KeyBySeries(final ReadingDecoder decoder) {
      this.decoder = decoder;
    }

    @Override
    public void process(final Record<byte[], byte[]> record) {
      final Reading reading;
      try {
        reading = decoder.decode(record.value());
      } catch (InvalidReadingException e) {
        throw new IllegalStateException("the benchmark's own readings do not decode", e);
      }
      context()
          .forward(
              new Record<>(
                  new SeriesKey(reading.getSensorId(), reading.getMetric()),
                  reading,
                  reading.getTimestamp().toEpochMilli(),
                  record.headers()));
    }
  }
}
