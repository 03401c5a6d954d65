package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.TypedTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The topology's front for Sparkplug B input, wiring only: key each record by its edge node ({@link
 * SparkplugEdgeKeyer}), repartition by edge node into {@code series.partitions} partitions
 * (explicit, so that the birth store's layout does not follow the input topic's partition count),
 * and read births and data in the edge node's task ({@link SparkplugDecodeProcessor}) over the
 * changelogged birth store. Its output is the decoded stream the rest of the topology takes from
 * {@link ReadingDecodeProcessor} otherwise: readings to the batcher, rejected input to the
 * dead-letter topic.
 */
final class SparkplugInput {

  private SparkplugInput() {}

  static KStream<SeriesKey, Object> decode(
      final StreamsBuilder builder,
      final KStream<byte[], byte[]> records,
      final BucketTopology.Settings settings,
      final TypedTopic<byte[], byte[]> deadLetters,
      final BucketerMetrics metrics) {
    if (!(settings.partitioning() instanceof InputPartitioning.BySeries bySeries)) {
      throw new IllegalArgumentException(
          "Sparkplug B input is repartitioned by edge node: it needs input.partitioning=by-series");
    }
    final SparkplugSettings sparkplug = settings.sparkplug().orElseThrow();
    final KStream<String, Object> keyed =
        records.process(
            () ->
                new SparkplugEdgeKeyer(
                    sparkplug, settings.readingChecks(), settings.handover(), metrics),
            Named.as(TopologyNames.SPARKPLUG_KEY_BY_EDGE_NODE));
    keyed
        .map(
            (none, rejected) ->
                KeyValue.pair(
                    ((RejectedInput) rejected).originalKey(),
                    ((RejectedInput) rejected).originalValue()),
            Named.as(TopologyNames.SPARKPLUG_UNKEYED_DEAD_LETTER))
        .to(
            deadLetters.name(),
            StreamsTopics.produced(deadLetters)
                .withName(TopologyNames.sink(deadLetters.name()) + "-sparkplug-unkeyed"));

    builder.addStateStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TopologyNames.SPARKPLUG_BIRTH_STORE),
                Serdes.String(),
                new SparkplugBirthSerde())
            // The processor keeps the births it uses as objects: a record cache would add nothing.
            .withCachingDisabled());
    return keyed
        .mapValues(
            envelope -> (SparkplugEnvelope) envelope, Named.as(TopologyNames.SPARKPLUG_KEYED))
        .repartition(
            Repartitioned.<String, SparkplugEnvelope>as(TopologyNames.SPARKPLUG_BY_EDGE_NODE)
                .withKeySerde(Serdes.String())
                .withValueSerde(new SparkplugEnvelopeSerde())
                .withNumberOfPartitions(bySeries.seriesPartitions()))
        .process(
            () ->
                new SparkplugDecodeProcessor(
                    sparkplug, settings.readingChecks(), settings.handover(), metrics),
            Named.as(TopologyNames.SPARKPLUG_DECODE),
            TopologyNames.SPARKPLUG_BIRTH_STORE);
  }
}
