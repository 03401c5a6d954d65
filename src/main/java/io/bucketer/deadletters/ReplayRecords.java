package io.bucketer.deadletters;

import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The input record a dead letter goes back as: its original key, value, timestamp and headers,
 * without the dead-letter headers and any earlier replay's, and with headers naming the dead letter
 * it replays ({@link ReplayHeaders}). No partition is given: the producer's partitioner places it
 * by its key, as it placed the original (which {@code input.partitioning=by-sensor} relies on).
 */
public final class ReplayRecords {

  private ReplayRecords() {}

  public static ProducerRecord<byte[], byte[]> toInput(
      final DeadLetter letter, final String inputTopic) {
    final RecordHeaders headers = new RecordHeaders();
    for (final Header header : letter.headers()) {
      if (!header.key().startsWith(DeadLetterHeaders.PREFIX)
          && !header.key().startsWith(ReplayHeaders.PREFIX)) {
        headers.add(header);
      }
    }
    ReplayHeaders.add(
        headers, letter.topic(), letter.partition(), letter.offset(), letter.reason());
    // The original's timestamp: SenML's relative times count from it. None: the producer's clock.
    final long original = letter.sourceTimestamp();
    final Long timestamp = original < 0 ? null : original;
    return new ProducerRecord<>(inputTopic, null, timestamp, letter.key(), letter.value(), headers);
  }
}
