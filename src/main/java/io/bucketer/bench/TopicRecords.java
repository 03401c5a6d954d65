package io.bucketer.bench;

import java.io.PrintStream;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * What a cluster's topics hold, from their end offsets summed over each topic's partitions: every
 * record written and every transaction marker (a marker takes an offset of its own), as the brokers
 * store, replicate and serve them. Compaction and retention do not lower an end offset, so the
 * difference of two readings is what was written between them.
 */
public final class TopicRecords {

  private TopicRecords() {}

  /** The end offsets of every topic of the cluster, the broker's own included, summed per topic. */
  static Map<String, Long> read(final Admin admin) throws Exception {
    final Map<String, Long> ends = new TreeMap<>();
    endOffsets(
            admin,
            admin
                .listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get(30, TimeUnit.SECONDS))
        .forEach((partition, end) -> ends.merge(partition.topic(), end, Long::sum));
    return ends;
  }

  /** The end offset of every partition of {@code topics}. */
  public static Map<TopicPartition, Long> endOffsets(
      final Admin admin, final Collection<String> topics) throws Exception {
    final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    admin
        .describeTopics(topics)
        .allTopicNames()
        .get(30, TimeUnit.SECONDS)
        .forEach(
            (topic, description) ->
                description
                    .partitions()
                    .forEach(
                        partition ->
                            latest.put(
                                new TopicPartition(topic, partition.partition()),
                                OffsetSpec.latest())));
    final Map<TopicPartition, Long> ends = new HashMap<>();
    admin
        .listOffsets(latest)
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((partition, info) -> ends.put(partition, info.offset()));
    return ends;
  }

  /**
   * Prints, per topic but {@code inputTopic}, the records and markers written between {@code from}
   * and {@code to} per reading processed, then the sum of the application's (all but the broker's
   * own {@code __} topics, which its commits write whatever the readings).
   */
  static void summarise(
      final Map<String, Long> from,
      final Map<String, Long> to,
      final long readingsProcessed,
      final String inputTopic,
      final PrintStream out) {
    final double readings = Math.max(1, readingsProcessed);
    double application = 0;
    out.println();
    out.printf(
        "Kafka records and transaction markers written per reading processed (the last two"
            + " thirds, %,d readings):%n",
        readingsProcessed);
    for (final Map.Entry<String, Long> end : to.entrySet()) {
      final String topic = end.getKey();
      final long written = end.getValue() - from.getOrDefault(topic, 0L);
      if (topic.equals(inputTopic) || written == 0) {
        continue;
      }
      final double perReading = written / readings;
      if (!topic.startsWith("__")) {
        application += perReading;
      }
      out.printf("  %-58s %10.5f  (%,d)%n", topic, perReading, written);
    }
    out.printf(
        "  %-58s %10.5f  (the broker's own __ topics aside)%n",
        "all of bucketer's topics together", application);
  }
}
