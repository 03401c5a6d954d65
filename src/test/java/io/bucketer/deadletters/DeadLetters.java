package io.bucketer.deadletters;

import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Dead letters made by hand, with headers as the topology and the sink write them. */
final class DeadLetters {

  static final String DLQ = "iot.readings.dlq";
  static final String INPUT = "iot.readings";

  /** How long before its dead letter the original of {@link #rejected} was timestamped. */
  static final Duration ORIGINAL_AGE = Duration.ofDays(30);

  private DeadLetters() {}

  /**
   * Rejected input read from {@code iot.readings}, at {@code sourcePartition}/{@code sourceOffset},
   * set aside at {@code time}; the original was timestamped {@link #ORIGINAL_AGE} earlier.
   */
  static DeadLetter rejected(
      final int partition,
      final long offset,
      final Instant time,
      final String reason,
      final int sourcePartition,
      final long sourceOffset,
      final String value) {
    final RecordHeaders headers = new RecordHeaders();
    headers.add("content-type", utf8("application/json"));
    DeadLetterHeaders.add(
        headers,
        reason,
        "why " + reason,
        INPUT,
        sourcePartition,
        sourceOffset,
        time.minus(ORIGINAL_AGE).toEpochMilli());
    return new DeadLetter(
        DLQ, partition, offset, time.toEpochMilli(), utf8("key-" + offset), utf8(value), headers);
  }

  /** A dead letter of {@code reason} read from {@code sourceTopic}, without other headers. */
  static DeadLetter from(final String sourceTopic, final String reason) {
    final RecordHeaders headers = new RecordHeaders();
    DeadLetterHeaders.add(headers, reason, "why", sourceTopic, 0, 5, -1);
    return new DeadLetter(DLQ, 0, 1, 0, null, utf8("{}"), headers);
  }

  /** {@code letter} as it comes back when its replay failed again, with {@code reason}. */
  static DeadLetter failedReplay(final DeadLetter letter, final String reason) {
    final RecordHeaders headers = new RecordHeaders(letter.headers().toArray());
    ReplayHeaders.add(headers, DLQ, letter.partition(), letter.offset(), letter.reason());
    DeadLetterHeaders.add(headers, reason, "again", INPUT, 1, 99, letter.sourceTimestamp());
    return new DeadLetter(
        DLQ,
        letter.partition(),
        letter.offset() + 1000,
        letter.timestamp(),
        letter.key(),
        letter.value(),
        headers);
  }

  static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
