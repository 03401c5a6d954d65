package io.bucketer.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bucketer.avro.Reading;
import io.bucketer.topics.DeadLetterHeaders;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Turns a reading that arrived after its window closed into a dead-letter record. The original
 * bytes are not carried through the repartition topic, so the value is the decoded reading as JSON;
 * the source headers point at the repartition topic record it was read from.
 */
final class TooLateReadings implements FixedKeyProcessor<String, AggregatorOutput, byte[]> {

  static final String REASON = DeadLetterHeaders.TOO_LATE;
  private static final ObjectMapper JSON = new ObjectMapper();

  private FixedKeyProcessorContext<String, byte[]> context;

  @Override
  public void init(final FixedKeyProcessorContext<String, byte[]> context) {
    this.context = context;
  }

  @Override
  public void process(final FixedKeyRecord<String, AggregatorOutput> record) {
    final AggregatorOutput.TooLate tooLate = (AggregatorOutput.TooLate) record.value();
    final String why =
        "the reading's window closed when event time reached "
            + Instant.ofEpochMilli(tooLate.watermark());
    DeadLetterSource.mark(record.headers(), REASON, why, context.recordMetadata().orElse(null));
    context.forward(record.withValue(toJson(tooLate.reading())));
  }

  static byte[] toJson(final Reading reading) {
    final ObjectNode node = JSON.createObjectNode();
    node.put("sensor_id", reading.getSensorId());
    node.put("metric", reading.getMetric());
    node.put("timestamp", reading.getTimestamp().toString());
    node.put("value", reading.getValue());
    node.put("utc_offset_minutes", reading.getUtcOffsetMinutes());
    return node.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
