package io.bucketer.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bucketer.avro.Reading;
import io.bucketer.topics.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Turns a reading the aggregator could not place into a dead-letter record: one that arrived after
 * its window's lateness horizon ({@code too-late}), or one of a series its tenant's series limit
 * refused ({@code series-limit}). The original bytes are not carried through the repartition topic,
 * so the value is the decoded reading as JSON; the source headers point at the repartition topic
 * record it was read from.
 */
final class UnplacedReadings implements FixedKeyProcessor<String, AggregatorOutput, byte[]> {

  private static final ObjectMapper JSON = new ObjectMapper();

  private FixedKeyProcessorContext<String, byte[]> context;

  @Override
  public void init(final FixedKeyProcessorContext<String, byte[]> context) {
    this.context = context;
  }

  @Override
  public void process(final FixedKeyRecord<String, AggregatorOutput> record) {
    final Reading reading;
    if (record.value() instanceof AggregatorOutput.OverSeriesLimit refused) {
      reading = refused.reading();
      DeadLetterSource.mark(
          record.headers(),
          DeadLetterHeaders.SERIES_LIMIT,
          refused.why(),
          context.recordMetadata().orElse(null),
          record.timestamp());
      DeadLetterHeaders.addTenant(record.headers(), refused.tenant());
    } else {
      final AggregatorOutput.TooLate tooLate = (AggregatorOutput.TooLate) record.value();
      reading = tooLate.reading();
      DeadLetterSource.mark(
          record.headers(),
          DeadLetterHeaders.TOO_LATE,
          tooLate.why(),
          context.recordMetadata().orElse(null),
          record.timestamp());
    }
    context.forward(record.withValue(toJson(reading)).withTimestamp(context.currentSystemTimeMs()));
  }

  static byte[] toJson(final Reading reading) {
    final ObjectNode node = JSON.createObjectNode();
    node.put("sensor_id", reading.getSensorId());
    node.put("metric", reading.getMetric());
    node.put("timestamp", reading.getTimestamp().toString());
    node.put("value", reading.getValue());
    node.put("utc_offset_minutes", reading.getUtcOffsetMinutes());
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }
}
