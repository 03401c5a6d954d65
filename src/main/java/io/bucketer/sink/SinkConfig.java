package io.bucketer.sink;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of a {@link BucketSink}.
 *
 * @param topic the compacted buckets topic
 * @param groupId consumer group; its committed offsets mark what MongoDB acknowledged
 * @param consumerProperties passed to the consumer as they are (bootstrap servers, security...),
 *     except group id, isolation level and auto commit, which the sink sets itself
 * @param pollTimeout longest wait of one poll
 * @param writeTimeout longest wait for MongoDB to acknowledge one batch
 * @param initialBackoff first wait before retrying a batch after a retryable failure
 * @param maxBackoff longest wait between retries; the wait doubles up to it
 */
public record SinkConfig(
    String topic,
    String groupId,
    Map<String, Object> consumerProperties,
    Duration pollTimeout,
    Duration writeTimeout,
    Duration initialBackoff,
    Duration maxBackoff) {

  public SinkConfig {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(groupId, "groupId");
    consumerProperties = Map.copyOf(consumerProperties);
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

  /** Poll 500 ms, write timeout 30 s, backoff from 200 ms doubling up to 30 s. */
  public static SinkConfig defaults(
      final String topic, final String groupId, final Map<String, Object> consumerProperties) {
    return new SinkConfig(
        topic,
        groupId,
        consumerProperties,
        Duration.ofMillis(500),
        Duration.ofSeconds(30),
        Duration.ofMillis(200),
        Duration.ofSeconds(30));
  }
}
