package io.bucketer.sink;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of a {@link BucketSink}.
 *
 * @param topic the compacted buckets topic
 * @param deadLetterTopic where buckets MongoDB rejects go, with the reason
 * @param groupId consumer group; its committed offsets mark what MongoDB acknowledged
 * @param kafkaProperties passed to the sink's consumer and dead-letter producer as they are
 *     (bootstrap servers, security...), except the settings the sink's guarantees rest on (group
 *     id, isolation level, auto commit; acks, idempotence), which the sink sets itself
 * @param pollTimeout longest wait of one poll
 * @param writeTimeout longest wait for MongoDB to acknowledge one batch
 * @param initialBackoff first wait before retrying a batch after a retryable failure
 * @param maxBackoff longest wait between retries; the wait doubles up to it
 */
public record SinkConfig(
    String topic,
    String deadLetterTopic,
    String groupId,
    Map<String, Object> kafkaProperties,
    Duration pollTimeout,
    Duration writeTimeout,
    Duration initialBackoff,
    Duration maxBackoff) {

  public SinkConfig {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
    Objects.requireNonNull(groupId, "groupId");
    kafkaProperties = Map.copyOf(kafkaProperties);
    for (final Duration duration :
        new Duration[] {pollTimeout, writeTimeout, initialBackoff, maxBackoff}) {
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("sink timeouts and backoffs must be positive");
      }
    }
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("maxBackoff must not be shorter than initialBackoff");
    }
  }

  /** Poll 500 ms, write timeout 30 s, backoff from 200 ms doubling up to 10 s. */
  public static SinkConfig defaults(
      final String topic,
      final String deadLetterTopic,
      final String groupId,
      final Map<String, Object> kafkaProperties) {
    return new SinkConfig(
        topic,
        deadLetterTopic,
        groupId,
        kafkaProperties,
        Duration.ofMillis(500),
        Duration.ofSeconds(30),
        Duration.ofMillis(200),
        Duration.ofSeconds(10));
  }
}
