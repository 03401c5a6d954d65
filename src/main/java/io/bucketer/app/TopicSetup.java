package io.bucketer.app;

import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.NotAuthorisedException;
import io.bucketer.topology.InputPartitioning;
import io.bucketer.topology.TopologyNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the topics bucketer writes to and Kafka Streams does not manage: the compacted buckets
 * topic (the latest version of each bucket is all the sink needs) and the dead-letter topic. The
 * input topic belongs to the gateways and is never created here.
 */
final class TopicSetup {

  private final BucketerConfig config;
  private final NotAuthorised notAuthorised;

  TopicSetup(final BucketerConfig config, final NotAuthorised notAuthorised) {
    this.config = config;
    this.notAuthorised = notAuthorised;
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
    final String finestChangelog =
        config.applicationId()
            + "-"
            + TopologyNames.windowStore(
                config.granularities().stream().min(Granularity::compareTo).orElseThrow())
            + "-changelog";
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      final Map<String, KafkaFuture<TopicDescription>> described =
          admin.describeTopics(List.of(config.inputTopic(), finestChangelog)).topicNameValues();
      final TopicDescription input =
          describedOrNull(config.inputTopic(), described.get(config.inputTopic()), notAuthorised);
      if (input == null) {
        throw new IllegalStateException(
            "input.partitioning=by-sensor needs the input topic "
                + config.inputTopic()
                + " to exist: its partitions lay out the state");
      }
      final int partitions = input.partitions().size();
      final TopicDescription changelog =
          describedOrNull(finestChangelog, described.get(finestChangelog), notAuthorised);
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
                + " with a new application.id from one lateness horizon back (README, 'Scaling')");
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
   * @throws IllegalStateException when the cluster does not answer, with why
   */
  boolean inputTopicExists() throws InterruptedException {
    final String topic = config.inputTopic();
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      admin.describeTopics(List.of(topic)).topicNameValues().get(topic).get();
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      if (NotAuthorised.find(e).isPresent()) {
        // Kafka's refusal to describe names no topic: this one was asked about.
        throw new NotAuthorisedException(notAuthorised.lineForTopics(Set.of(topic)));
      }
      throw new IllegalStateException("cannot describe topic " + topic + ": " + e.getCause(), e);
    }
  }

  private static TopicDescription describedOrNull(
      final String topic,
      final KafkaFuture<TopicDescription> description,
      final NotAuthorised notAuthorised)
      throws InterruptedException {
    try {
      return description.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      notAuthorised.line(e).ifPresent(TopicSetup::refused);
      throw new IllegalStateException("cannot describe topic " + topic + ": " + e.getCause(), e);
    }
  }

  private void create(final Admin admin, final List<NewTopic> missing)
      throws ExecutionException, InterruptedException {
    try {
      admin.createTopics(missing).all().get();
    } catch (ExecutionException e) {
      if (NotAuthorised.find(e).isPresent()) {
        throw new NotAuthorisedException(
            notAuthorised.lineForCreating(
                missing.stream().map(NewTopic::name).collect(Collectors.toSet())));
      }
      throw e;
    }
  }

  private static void refused(final String line) {
    throw new NotAuthorisedException(line);
  }

  /**
   * Creates the buckets and dead-letter topics if they are missing. Topics the principal may not
   * describe are not listed, so they look missing: creating them then fails, and the line names the
   * operation the README grants on them, DESCRIBE being implied by it. Topics that exist and are
   * listed ask for no CREATE permission.
   */
  void createMissingTopics() {
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      final Set<String> existing = admin.listTopics().names().get();
      final List<NewTopic> missing = new ArrayList<>();
      final Optional<Short> replication =
          config.topicReplicationFactor() < 0
              ? Optional.empty()
              : Optional.of(config.topicReplicationFactor());
      final Optional<Integer> partitions = Optional.of(config.seriesPartitions());
      if (!existing.contains(config.bucketsTopic())) {
        missing.add(
            new NewTopic(config.bucketsTopic(), partitions, replication)
                .configs(
                    Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
      }
      if (!existing.contains(config.deadLetterTopic())) {
        missing.add(new NewTopic(config.deadLetterTopic(), partitions, replication));
      }
      if (!missing.isEmpty()) {
        create(admin, missing);
      }
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create bucketer's topics: " + e.getCause(), e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    }
  }
}
