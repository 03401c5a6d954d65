package io.bucketer.check;

import io.bucketer.config.BucketerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * What Kafka must offer {@code run}, asked of its admin API: an answer from the cluster, the input
 * topic, and the product's own topics with the configuration they need (the buckets topic
 * compacted). A topic that does not exist yet and that {@code run} creates passes, saying so.
 */
final class KafkaChecks {

  static final String KAFKA = "Kafka";

  private final BucketerConfig config;
  private final Duration timeout;
  private final String bootstrap;

  KafkaChecks(final BucketerConfig config, final Duration timeout) {
    this.config = config;
    this.timeout = timeout;
    this.bootstrap = String.valueOf(config.kafkaProperties().get("bootstrap.servers"));
  }

  List<CheckResult> run() {
    final List<CheckResult> results = new ArrayList<>();
    try (Admin admin = Admin.create(adminProperties())) {
      final Optional<String> unreachable = connect(admin, results);
      if (unreachable.isPresent()) {
        return results;
      }
      results.add(inputTopic(admin));
      results.add(ownTopic(admin, "buckets topic", config.bucketsTopic(), true));
      results.add(ownTopic(admin, "dead-letter topic", config.deadLetterTopic(), false));
    }
    return results;
  }

  private Optional<String> connect(final Admin admin, final List<CheckResult> results) {
    try {
      final DescribeClusterResult cluster = admin.describeCluster();
      final String id = get(cluster.clusterId());
      final int brokers = get(cluster.nodes()).size();
      results.add(
          CheckResult.pass(
              KAFKA, "connection", bootstrap + ": cluster " + id + ", " + brokers + " broker(s)"));
      return Optional.empty();
    } catch (final CheckFailure e) {
      results.add(CheckResult.fail(KAFKA, "connection", e.getMessage()));
      return Optional.of(e.getMessage());
    }
  }

  private CheckResult inputTopic(final Admin admin) {
    final String topic = config.inputTopic();
    try {
      final TopicDescription description = describe(admin, topic);
      return CheckResult.pass(
          KAFKA, "input topic", topic + ": " + description.partitions().size() + " partition(s)");
    } catch (final MissingTopic e) {
      return CheckResult.fail(
          KAFKA, "input topic", "missing topic " + topic + ": the gateways' topic must exist");
    } catch (final CheckFailure e) {
      return CheckResult.fail(KAFKA, "input topic", e.getMessage());
    }
  }

  private CheckResult ownTopic(
      final Admin admin, final String what, final String topic, final boolean compacted) {
    try {
      describe(admin, topic);
    } catch (final MissingTopic e) {
      return CheckResult.pass(KAFKA, what, topic + ": missing, run creates it (CREATE on it)");
    } catch (final CheckFailure e) {
      return CheckResult.fail(KAFKA, what, e.getMessage());
    }
    if (!compacted) {
      return CheckResult.pass(KAFKA, what, topic + ": exists");
    }
    try {
      final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      final Config configs = get(admin.describeConfigs(List.of(resource)).values().get(resource));
      final String policy = configs.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
      return policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)
          ? CheckResult.pass(KAFKA, what, topic + ": exists, compacted")
          : CheckResult.fail(
              KAFKA,
              what,
              "wrong topic configuration: "
                  + topic
                  + " has cleanup.policy="
                  + policy
                  + ", bucketer needs compact (a bucket's later revision replaces the earlier)");
    } catch (final CheckFailure e) {
      return CheckResult.fail(KAFKA, what, e.getMessage());
    }
  }

  private TopicDescription describe(final Admin admin, final String topic) {
    return get(admin.describeTopics(List.of(topic)).topicNameValues().get(topic));
  }

  /** The admin client's settings: the clients' own, without those only Streams knows. */
  private Map<String, Object> adminProperties() {
    final Map<String, Object> properties = new HashMap<>();
    config
        .kafkaProperties()
        .forEach(
            (name, value) -> {
              if (AdminClientConfig.configNames().contains(name)) {
                properties.put(name, value);
              }
            });
    properties.put(AdminClientConfig.CLIENT_ID_CONFIG, config.applicationId() + "-check");
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    return properties;
  }

  /** Waits for one admin answer, its failure said in one line. */
  private <T> T get(final org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CheckFailure("interrupted");
    } catch (java.util.concurrent.TimeoutException e) {
      throw new CheckFailure(unreachable());
    } catch (ExecutionException e) {
      throw classify(e.getCause());
    }
  }

  private CheckFailure classify(final Throwable cause) {
    if (cause instanceof UnknownTopicOrPartitionException) {
      return new MissingTopic();
    }
    if (cause instanceof TimeoutException) {
      return new CheckFailure(unreachable());
    }
    if (cause instanceof SslAuthenticationException) {
      return new CheckFailure(
          "TLS handshake with "
              + bootstrap
              + " failed (kafka.ssl.truststore.*): "
              + firstLine(cause));
    }
    if (cause instanceof SaslAuthenticationException) {
      return new CheckFailure(
          "authentication failed at " + bootstrap + " (kafka.sasl.*): " + firstLine(cause));
    }
    if (cause instanceof AuthorizationException) {
      return new CheckFailure(
          "not authorised at "
              + bootstrap
              + ": "
              + firstLine(cause)
              + " (the ACLs the README's Security section lists)");
    }
    return new CheckFailure(bootstrap + ": " + firstLine(cause));
  }

  private String unreachable() {
    return "unreachable: no answer from " + bootstrap + " within " + timeout.toSeconds() + " s";
  }

  private static String firstLine(final Throwable cause) {
    final String message = cause.getMessage() == null ? "no reason given" : cause.getMessage();
    return message.lines().findFirst().orElse(message);
  }

  /** A check that cannot pass, with its one-line reason. */
  private static class CheckFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CheckFailure(final String message) {
      super(message, null, false, false);
    }
  }

  private static final class MissingTopic extends CheckFailure {
    private static final long serialVersionUID = 1L;

    MissingTopic() {
      super("missing topic");
    }
  }
}
