package io.bucketer.deadletters;

import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * One record of the dead-letter topic, where it is and what its headers say: why it was set aside
 * and where it was read from ({@link DeadLetterHeaders}), and whether it was itself a replay
 * ({@link ReplayHeaders}).
 *
 * @param timestamp the record's timestamp, epoch milliseconds: when it was set aside (format 2; in
 *     format 1 the original's, see {@link #sourceTimestamp()}); negative when it has none
 * @param headers every header, the dead-letter ones included
 */
public record DeadLetter(
    String topic,
    int partition,
    long offset,
    long timestamp,
    byte[] key,
    byte[] value,
    Headers headers) {

  /** The reason given when a record carries none: not a dead letter bucketer wrote. */
  public static final String NO_REASON = "(none)";

  /** Where a dead letter was read from before it was set aside. */
  public record Source(String topic, int partition, long offset) {

    /** {@code topic-partition}, as Kafka names a partition. */
    public String topicPartition() {
      return topic + "-" + partition;
    }

    @Override
    public String toString() {
      return topic + "/" + partition + "/" + offset;
    }
  }

  public static DeadLetter of(final ConsumerRecord<byte[], byte[]> record) {
    return new DeadLetter(
        record.topic(),
        record.partition(),
        record.offset(),
        record.timestamp(),
        record.key(),
        record.value(),
        record.headers());
  }

  /** Its reason label, {@value #NO_REASON} when it has none. */
  public String reason() {
    return text(DeadLetterHeaders.REASON).orElse(NO_REASON);
  }

  /** The human-readable message bucketer gave with the reason. */
  public Optional<String> message() {
    return text(DeadLetterHeaders.MESSAGE);
  }

  /** Where it was read from; empty when the headers do not say, or say it malformed. */
  public Optional<Source> source() {
    final Optional<String> topicName = text(DeadLetterHeaders.SOURCE_TOPIC);
    final Optional<String> sourcePartition = text(DeadLetterHeaders.SOURCE_PARTITION);
    final Optional<String> sourceOffset = text(DeadLetterHeaders.SOURCE_OFFSET);
    if (topicName.isEmpty() || sourcePartition.isEmpty() || sourceOffset.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Source(
              topicName.get(),
              Integer.parseInt(sourcePartition.get()),
              Long.parseLong(sourceOffset.get())));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The timestamp of the record that was set aside, epoch milliseconds, negative when it had none:
   * the {@value DeadLetterHeaders#SOURCE_TIMESTAMP} header; for a dead letter of format 1, which
   * kept the original's timestamp as its own, {@link #timestamp()}.
   */
  public long sourceTimestamp() {
    if (text(DeadLetterHeaders.FORMAT).orElse("1").equals("1")) {
      return timestamp;
    }
    try {
      return text(DeadLetterHeaders.SOURCE_TIMESTAMP).map(Long::parseLong).orElse(-1L);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The dead letter this record's input was a replay of ({@code topic/partition/offset}): set when
   * a replayed record failed again.
   */
  public Optional<String> replayOf() {
    return ReplayHeaders.replayOf(headers);
  }

  /** {@code topic/partition/offset} of this record, what {@link ReplayHeaders#OF} names. */
  public String coordinates() {
    return topic + "/" + partition + "/" + offset;
  }

  private Optional<String> text(final String name) {
    final Header header = headers.lastHeader(name);
    return header == null || header.value() == null
        ? Optional.empty()
        : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
  }
}
