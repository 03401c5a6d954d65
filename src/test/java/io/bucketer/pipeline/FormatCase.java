package io.bucketer.pipeline;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * One way gateways send the contract's messages ({@link GatewayMessages}): the settings that read
 * them, the record that carries each, and records of the same format that are wrong in each way it
 * can be, with the reason each must be dead-lettered with.
 */
interface FormatCase {

  /** What the parameterised test is called with this case. */
  @Override
  String toString();

  /** The input.* settings that read these records. */
  Map<String, String> settings();

  /** Records sent before any message: a Sparkplug edge node's births, say. None by default. */
  default List<OutgoingRecord> preamble(final Registry registry) {
    return List.of();
  }

  /** The record a gateway sends for {@code message}. */
  OutgoingRecord record(GatewayMessages.Message message, Registry registry);

  /**
   * The reading as bucketer reads it from this format's record: the same by default; a Sparkplug
   * device's sensor id is its topic's {@code group/edge/device}.
   */
  default Reading asRead(final Reading reading) {
    return reading;
  }

  /** Records that can never become readings, each with its dead-letter reason. */
  List<BadRecord> badRecords(Registry registry);

  /**
   * The registry the run's encoders register their writer schemas with, under {@code subject} (the
   * input topic's).
   */
  record Registry(ReadingEncoder avro, SchemaRegistryClient client, String subject) {}

  /** A record as a bridge would produce it. */
  record OutgoingRecord(byte[] key, byte[] value, Map<String, byte[]> headers) {

    static OutgoingRecord value(final byte[] value) {
      return new OutgoingRecord(null, value, Map.of());
    }

    /** The record to produce; its topic is the run's input topic. */
    ProducerRecord<byte[], byte[]> toProducerRecord() {
      final RecordHeaders kafkaHeaders = new RecordHeaders();
      headers.forEach(kafkaHeaders::add);
      return new ProducerRecord<>("", null, key, value, kafkaHeaders);
    }
  }

  /** A record that must end up in the dead-letter topic, whole, with {@code reason}. */
  record BadRecord(OutgoingRecord record, String reason) {}
}
