package io.bucketer.topics;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Headers of an input record that {@code bucketer dead-letters replay} sent back from the
 * dead-letter topic: which dead letter it is ({@value #OF}: {@code topic/partition/offset}; Kafka
 * topic names hold no '/') and why it had been set aside ({@value #REASON}). The topology keeps an
 * input record's headers on its dead letters, so a replayed record that fails again arrives in the
 * dead-letter topic with these headers: that is how the replay tool tells a failed replay from a
 * first failure, and leaves it alone unless asked.
 */
public final class ReplayHeaders {

  /** Prefix of every replay header: all are replaced when a record is replayed again. */
  public static final String PREFIX = "bucketer.replay.";

  public static final String OF = PREFIX + "of";
  public static final String REASON = PREFIX + "reason";

  private ReplayHeaders() {}

  /** Marks {@code headers} as those of a replay of the dead letter at those coordinates. */
  public static void add(
      final Headers headers,
      final String deadLetterTopic,
      final int partition,
      final long offset,
      final String reason) {
    headers.remove(OF);
    headers.remove(REASON);
    headers.add(OF, utf8(deadLetterTopic + "/" + partition + "/" + offset));
    headers.add(REASON, utf8(reason));
  }

  /** The dead letter a record is a replay of, {@code topic/partition/offset}; empty if none. */
  public static Optional<String> replayOf(final Headers headers) {
    final Header header = headers.lastHeader(OF);
    return header == null || header.value() == null
        ? Optional.empty()
        : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
  }

  private static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
