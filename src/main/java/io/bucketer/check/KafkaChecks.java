package io.bucketer.check;

import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.topics.BucketsTopicCleanup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;

/**
 * What Kafka must offer {@code run}, asked of its admin API: an answer from the cluster, the input
 * topic, and the product's own topics with the configuration they need (the buckets topic
 * compacted, and kept as long as MongoDB keeps the buckets: {@link BucketsTopicCleanup}). A topic
 * that does not exist yet and that {@code run} creates passes, saying so.
 */
final class KafkaChecks {

  static final String KAFKA = "Kafka";

  private final BucketerConfig config;
  private final Duration timeout;
  private final String bootstrap;
  private final KafkaFailures failures;

  KafkaChecks(final BucketerConfig config, final Duration timeout) {
    this.config = config;
    this.timeout = timeout;
    this.bootstrap = String.valueOf(config.kafkaProperties().get("bootstrap.servers"));
    this.failures =
        new KafkaFailures(
            config.kafkaProperties(),
            timeout,
            NotAuthorised.of(config.kafkaProperties(), RequiredAcls.Names.of(config), timeout));
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
      results.add(acls(admin));
    }
    return results;
  }

  /**
   * The README's ACLs, as far as the cluster describes them to this principal: the operations it
   * may perform on each existing topic and consumer group named in them. Prefixed grants (internal
   * topics, transactional ids) cannot be described by a client; run names them in one line if one
   * is missing.
   */
  private CheckResult acls(final Admin admin) {
    final List<String> missing = new ArrayList<>();
    final List<String> described = new ArrayList<>();
    for (final RequiredAcls.Grant grant : RequiredAcls.grants(RequiredAcls.Names.of(config))) {
      final ResourcePattern resource = grant.resource();
      if (resource.patternType() != PatternType.LITERAL) {
        continue;
      }
      final Optional<Set<AclOperation>> allowed = allowedOn(admin, resource);
      if (allowed.isEmpty()) {
        continue;
      }
      described.add(resource.name());
      for (final AclOperation operation : grant.operations()) {
        if (!allowed.get().contains(operation)) {
          missing.add(
              operation
                  + " on "
                  + resource.resourceType().name().toLowerCase(Locale.ROOT)
                  + " "
                  + resource.name());
        }
      }
    }
    if (!missing.isEmpty()) {
      return CheckResult.fail(
          KAFKA,
          "ACLs",
          "not authorised: "
              + String.join(", ", missing)
              + " (see "
              + RequiredAcls.README_SECTION
              + ")");
    }
    return CheckResult.pass(
        KAFKA,
        "ACLs",
        described.isEmpty()
            ? "not described by the cluster (no authorizer, or nothing to describe yet)"
            : "granted on "
                + String.join(", ", described)
                + "; prefixed ones (internal topics, transactional ids) are not describable");
  }

  /** What this principal may do on a topic or group; empty when the cluster does not say. */
  private Optional<Set<AclOperation>> allowedOn(final Admin admin, final ResourcePattern resource) {
    try {
      final Set<AclOperation> allowed =
          switch (resource.resourceType()) {
            case TOPIC ->
                get(admin
                        .describeTopics(
                            List.of(resource.name()),
                            new DescribeTopicsOptions().includeAuthorizedOperations(true))
                        .topicNameValues()
                        .get(resource.name()))
                    .authorizedOperations();
            case GROUP ->
                get(admin
                        .describeConsumerGroups(
                            List.of(resource.name()),
                            new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true))
                        .describedGroups()
                        .get(resource.name()))
                    .authorizedOperations();
            default -> null;
          };
      return Optional.ofNullable(allowed);
    } catch (final MissingTopic e) {
      return Optional.empty();
    } catch (final CheckFailure e) {
      // Not even DESCRIBE: nothing of the grant is there.
      return e.refused() ? Optional.of(Set.of()) : Optional.empty();
    }
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
      return CheckResult.pass(
          KAFKA,
          what,
          topic
              + ": missing, run creates it (CREATE on it)"
              + (compacted ? " with " + creation(config.bucketsTopicCleanup()) : ""));
    } catch (final CheckFailure e) {
      return CheckResult.fail(KAFKA, what, e.getMessage());
    }
    if (!compacted) {
      return CheckResult.pass(KAFKA, what, topic + ": exists");
    }
    final BucketsTopicCleanup cleanup = config.bucketsTopicCleanup();
    try {
      final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      final Config configs = get(admin.describeConfigs(List.of(resource)).values().get(resource));
      final BucketsTopicCleanup.Verdict verdict =
          cleanup.verdict(
              topic,
              valueOf(configs.get(TopicConfig.CLEANUP_POLICY_CONFIG)),
              valueOf(configs.get(TopicConfig.RETENTION_MS_CONFIG)),
              valueOf(configs.get(TopicConfig.RETENTION_BYTES_CONFIG)));
      // Kept without bound is not a failure: run and resink work, the topic only grows.
      return verdict.acceptable()
          ? CheckResult.pass(KAFKA, what, verdict.line())
          : CheckResult.fail(KAFKA, what, verdict.line());
    } catch (final CheckFailure e) {
      if (e.refused()) {
        // The README's ACLs do not include DESCRIBE_CONFIGS: a least-privilege principal cannot see
        // it.
        return CheckResult.pass(
            KAFKA,
            what,
            topic
                + ": exists; its cleanup.policy is not visible to this principal"
                + " (DESCRIBE_CONFIGS): it must be "
                + creation(cleanup));
      }
      return CheckResult.fail(KAFKA, what, e.getMessage());
    }
  }

  /** The buckets topic's configuration as run creates it, in one phrase. */
  private static String creation(final BucketsTopicCleanup cleanup) {
    return cleanup.topicConfig().entrySet().stream()
        .map(entry -> entry.getKey() + "=" + entry.getValue())
        .collect(Collectors.joining(" "));
  }

  private static String valueOf(final ConfigEntry entry) {
    return entry == null ? "" : entry.value();
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
      throw new CheckFailure(failures.unreachable());
    } catch (ExecutionException e) {
      throw classify(e.getCause());
    }
  }

  /** The shared one line of {@code run} and {@code check}; Kafka's own first line otherwise. */
  private CheckFailure classify(final Throwable cause) {
    if (cause instanceof UnknownTopicOrPartitionException) {
      return new MissingTopic();
    }
    return failures
        .classify(cause)
        .map(CheckFailure::new)
        .orElseGet(() -> new CheckFailure(failures.unclassified(cause)));
  }

  /** A check that cannot pass, with its one-line reason. */
  private static class CheckFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean refused;

    CheckFailure(final String message) {
      super(message, null, false, false);
      this.refused = false;
    }

    CheckFailure(final KafkaFailures.Failure failure) {
      super(failure.line(), null, false, false);
      this.refused = failure.cause() == KafkaFailures.Cause.NOT_AUTHORISED;
    }

    /** True when the cluster's authorizer refused the principal. */
    boolean refused() {
      return refused;
    }
  }

  private static final class MissingTopic extends CheckFailure {
    private static final long serialVersionUID = 1L;

    MissingTopic() {
      super("missing topic");
    }
  }
}
