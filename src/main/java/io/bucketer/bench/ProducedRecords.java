package io.bucketer.bench;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The records one Kafka Streams application's producers wrote, by topic, from the producers' own
 * {@code record-send-total}: exact, where end offsets would also count the transaction markers that
 * exactly-once writes. Internal topics are named {@code <application.id>-<name>-repartition} or
 * {@code -changelog}; whatever topics the metrics list are listed, so that a new state store shows
 * up without a change here.
 */
record ProducedRecords(String applicationId, Map<String, Long> byTopic) {

  private static final String REPARTITION = "-repartition";
  private static final String CHANGELOG = "-changelog";

  ProducedRecords {
    byTopic = Map.copyOf(byTopic);
  }

  /**
   * What the producers among {@code metrics} have written so far: each contender is a new Kafka
   * Streams instance, whose counts start at zero.
   */
  static ProducedRecords of(
      final String applicationId, final Map<MetricName, ? extends Metric> metrics) {
    return new ProducedRecords(
        applicationId,
        ClientMetrics.totalsBy(metrics, "producer-topic-metrics", "record-send-total", "topic"));
  }

  /**
   * The same, listing {@code topics} with no records if nothing was written to them: a producer has
   * metrics for a topic only once it has sent to it.
   */
  ProducedRecords including(final Collection<String> topics) {
    final Map<String, Long> all = new HashMap<>(byTopic);
    topics.forEach(topic -> all.putIfAbsent(topic, 0L));
    return new ProducedRecords(applicationId, all);
  }

  long to(final String topic) {
    return byTopic.getOrDefault(topic, 0L);
  }

  /** Records written to every changelog topic. */
  long changelogs() {
    return byTopic.entrySet().stream()
        .filter(topic -> topic.getKey().endsWith(CHANGELOG))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** The repartition topics, then the changelogs, then the rest, each by name. */
  List<String> topics() {
    return byTopic.keySet().stream()
        .sorted(Comparator.comparing(ProducedRecords::kind).thenComparing(topic -> topic))
        .toList();
  }

  static boolean isRepartition(final String topic) {
    return topic.endsWith(REPARTITION);
  }

  /** An internal topic's name without the application id, which every one of them starts with. */
  String shortName(final String topic) {
    final String prefix = applicationId + "-";
    return topic.startsWith(prefix) ? topic.substring(prefix.length()) : topic;
  }

  private static int kind(final String topic) {
    if (topic.endsWith(REPARTITION)) {
      return 0;
    }
    return topic.endsWith(CHANGELOG) ? 1 : 2;
  }
}
