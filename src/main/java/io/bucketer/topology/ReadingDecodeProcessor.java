package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Decodes the registry-framed Avro value, checks it, and keys the reading by its series. The input
 * key is ignored: gateways may send any key or none. Input that cannot become a reading is passed
 * on as {@link Ingested.Rejected} with dead-letter headers, so one bad record never stops the
 * stream. Event time moves from the Kafka record to the reading here: the record forwarded
 * downstream carries the reading's timestamp, so the repartitioned stream's time is event time.
 */
final class ReadingDecodeProcessor implements Processor<byte[], byte[], SeriesKey, Ingested> {

  static final String INVALID_SENSOR_ID = "invalid-sensor-id";
  static final String INVALID_VALUE = "invalid-value";

  private final ReadingDecoder decoder;
  private final BucketerMetrics metrics;
  private ProcessorContext<SeriesKey, Ingested> context;

  ReadingDecodeProcessor(final ReadingDecoder decoder, final BucketerMetrics metrics) {
    this.decoder = decoder;
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<SeriesKey, Ingested> context) {
    this.context = context;
  }

  @Override
  public void process(final Record<byte[], byte[]> record) {
    final Reading reading;
    try {
      reading = decoder.decode(record.value());
    } catch (InvalidReadingException e) {
      reject(record, e.reason().label(), e.getMessage());
      return;
    }
    if (reading.getSensorId().isBlank()) {
      reject(record, INVALID_SENSOR_ID, "sensor_id is empty");
      return;
    }
    if (!Double.isFinite(reading.getValue())) {
      reject(record, INVALID_VALUE, "value is " + reading.getValue());
      return;
    }
    final SeriesKey series = new SeriesKey(reading.getSensorId(), reading.getMetric());
    context.forward(
        new Record<SeriesKey, Ingested>(
            series,
            new Ingested.Accepted(reading),
            reading.getTimestamp().toEpochMilli(),
            record.headers()));
  }

  private void reject(final Record<byte[], byte[]> record, final String reason, final String why) {
    final Record<SeriesKey, Ingested> rejected =
        new Record<SeriesKey, Ingested>(
            null,
            new Ingested.Rejected(record.key(), record.value()),
            record.timestamp(),
            record.headers());
    DeadLetterHeaders.add(rejected.headers(), reason, why, context.recordMetadata().orElse(null));
    metrics.deadLetter(reason);
    context.forward(rejected);
  }
}
