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
   * Prints, per topic but {@code inputTopic}, the records and markers written between two readings
   * of the end offsets ({@code recordsFrom}, {@code recordsTo}) per reading processed, and the
   * bytes sent to it ({@link TopicBytes}, where the broker's meters are in this JVM), then the sums
   * of the application's topics (all but the broker's own {@code __} topics, which its commits
   * write whatever the readings); returns those sums.
   */
  static PerReading summarise(
      final Map<String, Long> recordsFrom,
      final Map<String, Long> recordsTo,
      final Map<String, Long> bytesFrom,
      final Map<String, Long> bytesTo,
      final long readingsProcessed,
      final String inputTopic,
      final PrintStream out) {
    final double readings = Math.max(1, readingsProcessed);
    double records = 0;
    double bytes = 0;
    out.println();
    out.printf(
        "Kafka records and transaction markers written, and bytes sent, per reading processed"
            + " (%,d readings):%n",
        readingsProcessed);
    out.printf("  %-58s %10s %10s  %s%n", "topic", "records", "bytes", "(records in all)");
    for (final Map.Entry<String, Long> end : recordsTo.entrySet()) {
      final String topic = end.getKey();
      final long written = end.getValue() - recordsFrom.getOrDefault(topic, 0L);
      if (topic.equals(inputTopic) || written == 0) {
        continue;
      }
      final double recordsPerReading = written / readings;
      final double bytesPerReading =
          (bytesTo.getOrDefault(topic, 0L) - bytesFrom.getOrDefault(topic, 0L)) / readings;
      if (!topic.startsWith("__")) {
        records += recordsPerReading;
        bytes += bytesPerReading;
      }
      out.printf(
          "  %-58s %10.5f %10.1f  (%,d)%n", topic, recordsPerReading, bytesPerReading, written);
    }
    out.printf(
        "  %-58s %10.5f %10.1f  (the broker's own __ topics aside)%n",
        "all of bucketer's topics together", records, bytes);
    return new PerReading(records, bytes);
  }

  /** Records (markers included) and bytes written to the application's topics per reading. */
  public record PerReading(double records, double bytes) {}
}
