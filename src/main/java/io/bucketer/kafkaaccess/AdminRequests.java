package io.bucketer.kafkaaccess;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The admin requests of the commands that read and move a group's offsets ({@code reprocess},
 * {@code rescale}), each answered within a deadline and failed with Kafka's own exception, so that
 * those commands tell a refusal from an outage as {@link KafkaFailures} does for every command.
 */
public final class AdminRequests {

  private final Admin admin;
  private final Duration timeout;

  public AdminRequests(final Admin admin, final Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /** An admin client's properties: {@code kafka}'s, named {@code clientId}, with the deadline. */
  public static Map<String, Object> properties(
      final Map<String, Object> kafka, final String clientId, final Duration timeout) {
    final Map<String, Object> properties = new HashMap<>(kafka);
    properties.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    return properties;
  }

  /** The future's value within the deadline. */
  public <T> T answer(final KafkaFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("interrupted while waiting for the cluster", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof KafkaException failure) {
        throw failure;
      }
      throw new KafkaException(e.getCause());
    } catch (TimeoutException e) {
      throw new org.apache.kafka.common.errors.TimeoutException(
          "no answer from Kafka within " + timeout.toSeconds() + " s", e);
    }
  }

  /** The partitions of {@code topic}; empty when it does not exist. */
  public Optional<List<TopicPartition>> partitionsOf(final String topic) {
    try {
      return Optional.of(
          answer(admin.describeTopics(List.of(topic)).allTopicNames())
              .get(topic)
              .partitions()
              .stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList());
    } catch (UnknownTopicOrPartitionException e) {
      return Optional.empty();
    }
  }

  /** The offsets {@code spec} names, read committed: what the processors, which read so, reach. */
  public Map<TopicPartition, ListOffsetsResultInfo> readCommittedOffsets(
      final List<TopicPartition> partitions, final OffsetSpec spec) {
    final Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    partitions.forEach(partition -> specs.put(partition, spec));
    return answer(
        admin.listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all());
  }
}
