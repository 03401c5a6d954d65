package io.bucketer.app;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.KafkaUnusableException;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.NotAuthorisedException;
import io.bucketer.topics.BucketsTopicCleanup;
import io.bucketer.topology.InputPartitioning;
import io.bucketer.topology.TopologyNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics bucketer writes to and Kafka Streams does not manage: the compacted buckets
 * topic (the latest version of each bucket is all the sink needs), kept as long as MongoDB keeps
 * the buckets ({@link BucketsTopicCleanup}), and the dead-letter topic. The input topic belongs to
 * the gateways and is never created here.
 */
final class TopicSetup {

  private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);

  private final BucketerConfig config;
  private final NotAuthorised notAuthorised;
  private final KafkaFailures failures;
  private final int timeoutMs;

  /**
   * @param failures classifies the admin client's failures; its timeout bounds each call here, so
   *     that an unreachable cluster is said within it rather than after Kafka's 60 s default
   */
  TopicSetup(
      final BucketerConfig config,
      final NotAuthorised notAuthorised,
      final KafkaFailures failures,
      final Duration timeout) {
    this.config = config;
    this.notAuthorised = notAuthorised;
    this.failures = failures;
    this.timeoutMs = (int) timeout.toMillis();
  }

  /**
   * How readings reach their series' state. Keyed by sensor, the state is laid out by the input
   * topic's partition count: if its changelog was laid out for another count, the input topic's
   * partitions changed, and the sensors' records now land on other partitions than their state.
   *
   * @throws IllegalStateException when the input topic is missing, or its partition count changed
   */
  InputPartitioning partitioning() {
    if (!config.inputKeyedBySensor()) {
      return new InputPartitioning.BySeries(config.seriesPartitions());
    }
    // The window log's changelog, and that of the finest windows before it (kept after an
    // upgrade): either, where it exists, says how many partitions the state was laid out for.
    final String finest =
        TopologyNames.legacyWindowStore(
            config.granularities().stream().min(Granularity::compareTo).orElseThrow());
    final List<String> stateChangelogs =
        List.of(
            config.applicationId() + "-" + TopologyNames.WINDOW_LOG_STORE + "-changelog",
            config.applicationId() + "-" + finest + "-changelog");
    final List<String> topics = new ArrayList<>(stateChangelogs);
    topics.add(0, config.inputTopic());
    try (Admin admin = Admin.create(adminProperties())) {
      final Map<String, KafkaFuture<TopicDescription>> described =
          admin
              .describeTopics(topics, new DescribeTopicsOptions().timeoutMs(timeoutMs))
              .topicNameValues();
      final TopicDescription input =
          describedOrNull(config.inputTopic(), described.get(config.inputTopic()));
      if (input == null) {
        throw new IllegalStateException(
            "input.partitioning=by-sensor needs the input topic "
                + config.inputTopic()
                + " to exist: its partitions lay out the state");
      }
      final int partitions = input.partitions().size();
      for (final String stateChangelog : stateChangelogs) {
        final TopicDescription changelog =
            describedOrNull(stateChangelog, described.get(stateChangelog));
        if (changelog != null && changelog.partitions().size() != partitions) {
          throw new IllegalStateException(
              "the input topic "
                  + config.inputTopic()
                  + " has "
                  + partitions
                  + " partitions, but this application's state was laid out for "
                  + changelog.partitions().size()
                  + ": with input.partitioning=by-sensor the input's partitions must not change."
                  + " Sensors now map to other partitions than their windows. Run a new deployment"
                  + " with a new application.id from one lateness horizon back (docs/sizing.md)");
        }
      }
      return new InputPartitioning.BySensorKey(partitions);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while describing the input topic", e);
    }
  }

  /**
   * Whether the input topic exists now.
   *
   * @throws NotAuthorisedException when the principal may not describe it
   * @throws KafkaUnreachableException when the cluster does not answer
   * @throws KafkaUnusableException when it cannot be used as configured (TLS, authentication)
   * @throws IllegalStateException on another failure, with why
   */
  boolean inputTopicExists() throws InterruptedException {
    final String topic = config.inputTopic();
    try (Admin admin = Admin.create(adminProperties())) {
      admin
          .describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(timeoutMs))
          .topicNameValues()
          .get(topic)
          .get();
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      if (NotAuthorised.find(e).isPresent()) {
        // Kafka's refusal to describe names no topic: this one was asked about.
        throw new NotAuthorisedException(notAuthorised.lineForTopics(Set.of(topic)));
      }
      throw failed(e, "cannot describe topic " + topic);
    }
  }

  /**
   * The clients' settings, with one client id for every admin client of the start: Kafka's warning
   * that a node cannot be reached then stays one repeated line, which the log lets through once a
   * minute, rather than a new one for each attempt's new client.
   */
  private Map<String, Object> adminProperties() {
    final Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    properties.put(AdminClientConfig.CLIENT_ID_CONFIG, config.applicationId() + "-setup");
    return properties;
  }

  private TopicDescription describedOrNull(
      final String topic, final KafkaFuture<TopicDescription> description)
      throws InterruptedException {
    try {
      return description.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      throw failed(e, "cannot describe topic " + topic);
    }
  }

  /**
   * The failure as the start reports it: a refusal by the authorizer, an unreachable cluster (to be
   * retried), a configuration it cannot work with (fatal), each in its one line; anything else
   * {@code doing} and Kafka's words.
   */
  private RuntimeException failed(final ExecutionException e, final String doing) {
    final Optional<KafkaFailures.Failure> failure = failures.classify(e.getCause());
    if (failure.isEmpty()) {
      return new IllegalStateException(doing + ": " + e.getCause(), e);
    }
    final String line = failure.get().line();
    return switch (failure.get().cause()) {
      case UNREACHABLE -> new KafkaUnreachableException(line);
      case NOT_AUTHORISED -> new NotAuthorisedException(line);
      default -> new KafkaUnusableException(line);
    };
  }

  /**
   * Creates the {@code missing} topics and returns those another client created since they were
   * listed: a second instance starting at once, or a topic whose creation a moment ago the broker
   * answered to had not reached its listing yet.
   */
  private Set<String> create(final Admin admin, final List<NewTopic> missing)
      throws ExecutionException, InterruptedException {
    final Set<String> createdMeanwhile = new HashSet<>();
    final Map<String, KafkaFuture<Void>> results =
        admin.createTopics(missing, new CreateTopicsOptions().timeoutMs(timeoutMs)).values();
    for (final Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
      try {
        result.getValue().get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof TopicExistsException) {
          createdMeanwhile.add(result.getKey());
        } else if (NotAuthorised.find(e).isPresent()) {
          throw new NotAuthorisedException(notAuthorised.lineForCreating(results.keySet()));
        } else {
          throw e;
        }
      }
    }
    return createdMeanwhile;
  }

  /**
   * An existing buckets topic made by someone else, or before its retention was bounded, may lack
   * compaction (the topic then grows with every revision and its retention deletes closed buckets
   * that nothing can write again) or delete buckets MongoDB still keeps (then {@code bucketer
   * resink} cannot rebuild them): said in one line with the change that fixes it; not fatal, and
   * not changed here ({@link BucketsTopicCleanup}). A topic kept without bound is said once, at
   * info. A principal without DESCRIBE_CONFIGS (the README's ACLs do not grant it) cannot see the
   * configuration: then nothing is said, and {@code check} says why.
   */
  private void checkCleanup(final Admin admin, final String topic) throws InterruptedException {
    final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    try {
      final Config described = describeOnceKnown(admin, resource);
      final ConfigEntry policy = described.get(TopicConfig.CLEANUP_POLICY_CONFIG);
      if (policy == null) {
        return;
      }
      final BucketsTopicCleanup.Verdict verdict =
          config
              .bucketsTopicCleanup()
              .verdict(
                  topic,
                  policy.value(),
                  valueOf(described.get(TopicConfig.RETENTION_MS_CONFIG)),
                  valueOf(described.get(TopicConfig.RETENTION_BYTES_CONFIG)));
      final Object bootstrap =
          config.kafkaProperties().get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
      if (!verdict.acceptable()) {
        LOG.warn("kafka at {}: {}", bootstrap, verdict.line());
      } else if (verdict.status() == BucketsTopicCleanup.Status.UNBOUNDED) {
        LOG.info("kafka at {}: {}", bootstrap, verdict.line());
      }
    } catch (ExecutionException e) {
      // not visible to this principal, or gone meanwhile: check tells the first
    }
  }

  /**
   * The topic's configuration, asked again while the broker does not know the topic yet: a topic
   * another client has just created reaches the broker's metadata a moment after its creation was
   * answered, within the setup's timeout.
   */
  private Config describeOnceKnown(final Admin admin, final ConfigResource resource)
      throws ExecutionException, InterruptedException {
    final RetryPolicy<Config> whileUnknown =
        RetryPolicy.<Config>builder()
            .handleIf(failure -> failure.getCause() instanceof UnknownTopicOrPartitionException)
            .withBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
            .withMaxDuration(Duration.ofMillis(timeoutMs))
            .withMaxRetries(-1)
            .build();
    try {
      return Failsafe.with(whileUnknown)
          .get(
              () ->
                  admin
                      .describeConfigs(
                          List.of(resource), new DescribeConfigsOptions().timeoutMs(timeoutMs))
                      .values()
                      .get(resource)
                      .get());
    } catch (FailsafeException e) {
      if (e.getCause() instanceof ExecutionException failure) {
        throw failure;
      }
      if (e.getCause() instanceof InterruptedException) {
        throw new InterruptedException("interrupted while describing " + resource.name());
      }
      throw e;
    }
  }

  private static String valueOf(final ConfigEntry entry) {
    return entry == null ? null : entry.value();
  }

  /**
   * Creates the buckets and dead-letter topics if they are missing. Topics the principal may not
   * describe are not listed, so they look missing: creating them then fails, and the line names the
   * operation the README grants on them, DESCRIBE being implied by it. Topics that exist and are
   * listed ask for no CREATE permission.
   *
   * @throws KafkaUnreachableException when the cluster does not answer
   * @throws KafkaUnusableException when it cannot be used as configured (TLS, authentication)
   */
  void createMissingTopics() {
    try (Admin admin = Admin.create(adminProperties())) {
      createMissingTopics(admin);
    }
  }

  /** {@link #createMissingTopics()} with {@code admin}; a test gives its own to make a race. */
  void createMissingTopics(final Admin admin) {
    try {
      final Set<String> existing =
          admin.listTopics(new ListTopicsOptions().timeoutMs(timeoutMs)).names().get();
      final List<NewTopic> missing = new ArrayList<>();
      final Optional<Short> replication =
          config.topicReplicationFactor() < 0
              ? Optional.empty()
              : Optional.of(config.topicReplicationFactor());
      final Optional<Integer> partitions = Optional.of(config.seriesPartitions());
      if (!existing.contains(config.bucketsTopic())) {
        missing.add(
            new NewTopic(config.bucketsTopic(), partitions, replication)
                .configs(config.bucketsTopicCleanup().topicConfig()));
      }
      if (!existing.contains(config.deadLetterTopic())) {
        missing.add(new NewTopic(config.deadLetterTopic(), partitions, replication));
      }
      final Set<String> createdMeanwhile = missing.isEmpty() ? Set.of() : create(admin, missing);
      if (existing.contains(config.bucketsTopic())
          || createdMeanwhile.contains(config.bucketsTopic())) {
        checkCleanup(admin, config.bucketsTopic());
      }
    } catch (ExecutionException e) {
      throw failed(e, "cannot create bucketer's topics");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    }
  }
}
