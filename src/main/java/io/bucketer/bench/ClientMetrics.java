package io.bucketer.bench;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Sums of the Kafka clients' own metrics ({@code KafkaStreams.metrics()}: every consumer, producer
 * and task of one application), read directly: exact counts at the moment they are read.
 */
final class ClientMetrics {

  private ClientMetrics() {}

  /** The sum of metric {@code name} of {@code group} over every client, thread and task. */
  static long total(
      final Map<MetricName, ? extends Metric> metrics, final String group, final String name) {
    long total = 0;
    for (final Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
      if (matches(metric.getKey(), group, name)) {
        total += value(metric.getValue());
      }
    }
    return total;
  }

  /**
   * Whether a stream thread among {@code metrics} has processed a record yet. (Kafka Streams' main
   * consumer does not count {@code records-consumed-total}; the threads count what they process.)
   */
  static boolean processedAny(final Map<MetricName, ? extends Metric> metrics) {
    return total(metrics, "stream-thread-metrics", "process-total") > 0;
  }

  /** As {@link #total}, per value of tag {@code tag}; metrics without that tag are left out. */
  static Map<String, Long> totalsBy(
      final Map<MetricName, ? extends Metric> metrics,
      final String group,
      final String name,
      final String tag) {
    final Map<String, Long> totals = new TreeMap<>();
    for (final Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
      final String tagValue = metric.getKey().tags().get(tag);
      if (tagValue != null && matches(metric.getKey(), group, name)) {
        totals.merge(tagValue, value(metric.getValue()), Long::sum);
      }
    }
    return totals;
  }

  private static boolean matches(final MetricName metric, final String group, final String name) {
    return metric.group().equals(group) && metric.name().equals(name);
  }

  /** Kafka keeps counts as doubles; they are whole numbers, far below 2^53. */
  private static long value(final Metric metric) {
    return metric.metricValue() instanceof Number number ? Math.round(number.doubleValue()) : 0;
  }
}
