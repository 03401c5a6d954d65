package io.bucketer.topology;

import io.bucketer.buckets.Handover;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.sparkplug.SparkplugMessageType;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopic;
import io.bucketer.metrics.BucketerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The first step of Sparkplug B input: reads each record's MQTT topic and keys the record by its
 * edge node ({@code group/edge}), so that the repartition after it brings every message of an edge
 * node and its devices, births and data alike, to one task, whichever input partition the bridge
 * wrote it to (a bridge that keys by topic spreads one node's NBIRTH, NDATA and DDATA over
 * partitions). Counts every message by type; host applications' messages (NCMD, DCMD, STATE) are
 * not the edge's data and go no further. A reading over a series limit sent back by {@code
 * dead-letters replay} ({@link ReplayedSeriesLimit}) is no Sparkplug message: it goes on keyed by
 * its sensor id, and the decoding step reads its JSON. A record without a Sparkplug topic, or too
 * large, goes to the dead-letter topic here, by name to {@link
 * TopologyNames#SPARKPLUG_UNKEYED_DEAD_LETTER}; the others to {@link
 * TopologyNames#SPARKPLUG_KEYED}.
 */
final class SparkplugEdgeKeyer implements Processor<byte[], byte[], String, Object> {

  /** The MQTT topic of a replayed reading over a series limit, which has none. */
  static final String REPLAYED = "";

  private final SparkplugSettings settings;
  private final ReadingChecks checks;
  private final Handover handover;
  private final BucketerMetrics metrics;
  private ProcessorContext<String, Object> context;

  SparkplugEdgeKeyer(
      final SparkplugSettings settings,
      final ReadingChecks checks,
      final Handover handover,
      final BucketerMetrics metrics) {
    this.handover = handover;
    this.settings = settings;
    this.checks = checks;
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<String, Object> context) {
    this.context = context;
  }

  @Override
  public void process(final Record<byte[], byte[]> record) {
    final Optional<ReadingChecks.Rejection> tooLarge = checks.checkSize(record.value());
    if (tooLarge.isPresent()) {
      reject(record, tooLarge.get());
      return;
    }
    if (ReplayedSeriesLimit.isReplayed(record.headers())) {
      // The JSON of a decoded reading, keyed by its sensor id: no MQTT topic, no birth needed.
      forward(
          record,
          record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8),
          REPLAYED);
      return;
    }
    final SparkplugTopic topic;
    try {
      topic = settings.topicSource().topicOf(ReadingDecodeProcessor.inputOf(record));
    } catch (InvalidReadingException e) {
      reject(record, new ReadingChecks.Rejection(e.reason().label(), e.getMessage()));
      return;
    }
    metrics.sparkplugMessage(topic.type().name());
    if (topic.type() == SparkplugMessageType.NCMD
        || topic.type() == SparkplugMessageType.DCMD
        || topic.type() == SparkplugMessageType.STATE) {
      return;
    }
    forward(record, topic.edgeNodeId(), topic.toString());
  }

  private void forward(
      final Record<byte[], byte[]> record, final String key, final String mqttTopic) {
    final RecordMetadata source = context.recordMetadata().orElse(null);
    context.forward(
        new Record<String, Object>(
            key,
            new SparkplugEnvelope(
                mqttTopic,
                record.key(),
                record.value(),
                source == null ? "" : source.topic(),
                source == null ? -1 : source.partition(),
                source == null ? -1L : source.offset()),
            record.timestamp(),
            record.headers()),
        TopologyNames.SPARKPLUG_KEYED);
  }

  /** To the dead-letter topic, unless the other side of a handover dead-letters this record. */
  private void reject(
      final Record<byte[], byte[]> record, final ReadingChecks.Rejection rejection) {
    if (!handover.takesRejectionOf(record.timestamp())) {
      return;
    }
    RejectedInput.forward(
        context, record, rejection, metrics, TopologyNames.SPARKPLUG_UNKEYED_DEAD_LETTER);
  }
}
