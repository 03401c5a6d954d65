package io.bucketer.topology;

import io.bucketer.topics.DeadLetterHeaders;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Marks a record of the topology as a dead letter, with where Kafka Streams read it from and the
 * timestamp it had; the dead letter itself is stamped with the time it is set aside ({@link
 * DeadLetterHeaders}: retention counts from it).
 */
final class DeadLetterSource {

  private DeadLetterSource() {}

  /**
   * {@code source}: the metadata of the record being processed, null when there is none; a
   * punctuation's names no topic (readings applied after a hold, {@link ReadingHold}); {@code
   * sourceTimestamp}: the timestamp of the record as it was read.
   */
  static void mark(
      final Headers headers,
      final String reason,
      final String message,
      final RecordMetadata source,
      final long sourceTimestamp) {
    if (source == null || source.topic() == null) {
      DeadLetterHeaders.add(headers, reason, message, sourceTimestamp);
    } else {
      DeadLetterHeaders.add(
          headers,
          reason,
          message,
          source.topic(),
          source.partition(),
          source.offset(),
          sourceTimestamp);
    }
  }
}
