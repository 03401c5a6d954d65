package io.bucketer.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The settings Kafka's own clients define, as {@code kafka.*} passes them on: Kafka Streams', the
 * producer's, the consumer's and the admin client's, and the prefixed forms through which Kafka
 * Streams hands a setting to one of its clients or to its internal topics ({@code
 * main.consumer.max.poll.records}, {@code topic.min.insync.replicas}).
 */
final class KafkaClientNames {

  /**
   * Prefixes under which Kafka itself takes names of the user's choosing: Kafka Streams' client
   * tags for rack-aware standby placement, and the clients' metrics context labels.
   */
  private static final List<String> FREE_FORM_PREFIXES =
      List.of(StreamsConfig.CLIENT_TAG_PREFIX, "metrics.context.");

  private static final Set<String> KNOWN = known();

  private KafkaClientNames() {}

  /** True when a Kafka client, or Kafka Streams for one of them, takes this name. */
  static boolean isKnown(final String name) {
    return KNOWN.contains(name) || FREE_FORM_PREFIXES.stream().anyMatch(name::startsWith);
  }

  /** Every name {@link #isKnown} takes but those under a free-form prefix, for suggestions. */
  static Set<String> all() {
    return KNOWN;
  }

  private static Set<String> known() {
    final Set<String> streams = StreamsConfig.configDef().names();
    final Set<String> producer = ProducerConfig.configNames();
    final Set<String> consumer = ConsumerConfig.configNames();
    final Set<String> admin = AdminClientConfig.configNames();
    final Set<String> known = new TreeSet<>();
    known.addAll(streams);
    known.addAll(producer);
    known.addAll(consumer);
    known.addAll(admin);
    prefixed(known, StreamsConfig.PRODUCER_PREFIX, producer);
    prefixed(known, StreamsConfig.CONSUMER_PREFIX, consumer);
    prefixed(known, StreamsConfig.MAIN_CONSUMER_PREFIX, consumer);
    prefixed(known, StreamsConfig.RESTORE_CONSUMER_PREFIX, consumer);
    prefixed(known, StreamsConfig.GLOBAL_CONSUMER_PREFIX, consumer);
    prefixed(known, StreamsConfig.ADMIN_CLIENT_PREFIX, admin);
    prefixed(known, StreamsConfig.TOPIC_PREFIX, topicConfigNames());
    return Set.copyOf(known);
  }

  private static void prefixed(
      final Set<String> known, final String prefix, final Set<String> names) {
    names.forEach(name -> known.add(prefix + name));
  }

  /**
   * The topic-level settings, which the clients' jar ships only as {@link TopicConfig}'s {@code
   * *_CONFIG} constants (the broker's list of them is not in the runtime image).
   */
  private static Set<String> topicConfigNames() {
    final Set<String> names = new TreeSet<>();
    for (final Field field : TopicConfig.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers())
          && field.getType() == String.class
          && field.getName().endsWith("_CONFIG")) {
        try {
          names.add((String) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("TopicConfig's public constants are readable", e);
        }
      }
    }
    return names;
  }
}
