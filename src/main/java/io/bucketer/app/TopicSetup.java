package io.bucketer.app;

import io.bucketer.config.BucketerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the topics bucketer writes to and Kafka Streams does not manage: the compacted buckets
 * topic (the latest version of each bucket is all the sink needs) and the dead-letter topic. The
 * input topic belongs to the gateways and is never created here.
 */
final class TopicSetup {

  private final BucketerConfig config;

  TopicSetup(final BucketerConfig config) {
    this.config = config;
  }

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
        admin.createTopics(missing).all().get();
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
