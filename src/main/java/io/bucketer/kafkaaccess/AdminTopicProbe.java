package io.bucketer.kafkaaccess;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Asks the cluster, with an admin client made for the question and closed after it, what the
 * principal may do on each topic: Kafka's metadata answer carries the operations the authorizer
 * allows ({@code includeAuthorizedOperations}, KIP-430). It is asked once, when something has been
 * refused, so a client of its own costs nothing while all is well.
 */
final class AdminTopicProbe implements NotAuthorised.TopicProbe {

  private final Map<String, Object> clientProperties;
  private final Duration timeout;

  AdminTopicProbe(final Map<String, Object> clientProperties, final Duration timeout) {
    this.clientProperties = Map.copyOf(clientProperties);
    this.timeout = timeout;
  }

  @Override
  public Map<String, NotAuthorised.TopicOperations> apply(final Set<String> topics) {
    final Map<String, Object> properties = new HashMap<>(clientProperties);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    // its own client id: two clients with one id clash in JMX, which Kafka logs as a warning
    properties.put(
        AdminClientConfig.CLIENT_ID_CONFIG,
        properties.getOrDefault(AdminClientConfig.CLIENT_ID_CONFIG, "bucketer") + "-acl-probe");
    final Map<String, NotAuthorised.TopicOperations> answers = new LinkedHashMap<>();
    try (Admin admin = Admin.create(properties)) {
      final Map<String, KafkaFuture<TopicDescription>> described =
          admin
              .describeTopics(topics, new DescribeTopicsOptions().includeAuthorizedOperations(true))
              .topicNameValues();
      for (final String topic : topics) {
        answers.put(topic, operations(described.get(topic)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return NotAuthorised.unknown(topics);
    } catch (RuntimeException e) {
      // an answer about what is missing must not fail itself: fall back to what the README needs
      return NotAuthorised.unknown(topics);
    }
    return answers;
  }

  private NotAuthorised.TopicOperations operations(final KafkaFuture<TopicDescription> future)
      throws InterruptedException {
    if (future == null) {
      return new NotAuthorised.TopicOperations.Unknown();
    }
    try {
      final TopicDescription description = future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return description.authorizedOperations() == null
          ? new NotAuthorised.TopicOperations.Unknown()
          : new NotAuthorised.TopicOperations.Allowed(description.authorizedOperations());
    } catch (ExecutionException e) {
      return e.getCause() instanceof UnknownTopicOrPartitionException
          ? new NotAuthorised.TopicOperations.Missing()
          : new NotAuthorised.TopicOperations.Unknown();
    } catch (TimeoutException e) {
      return new NotAuthorised.TopicOperations.Unknown();
    }
  }
}
