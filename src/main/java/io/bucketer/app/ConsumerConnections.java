package io.bucketer.app;

import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether the stream threads' consumers have lost the cluster, from their own client metrics: each
 * main consumer's {@code connection-count} (open connections to brokers). While Kafka Streams runs
 * a consumer always holds one, to its group coordinator at least; none means the brokers are away.
 * Kafka Streams' public state does not say it: it stays RUNNING while its consumers reconnect.
 */
final class ConsumerConnections {

  /** The main consumer of a stream thread, not its restore consumer: Kafka Streams' client ids. */
  private static final Pattern MAIN_CONSUMER = Pattern.compile(".*-StreamThread-\\d+-consumer");

  private ConsumerConnections() {}

  /**
   * How many of the stream threads' main consumers have no connection, of how many there are.
   *
   * @param metrics Kafka Streams' client metrics ({@code KafkaStreams.metrics()})
   */
  static Count unconnected(final Map<MetricName, ? extends Metric> metrics) {
    int consumers = 0;
    int unconnected = 0;
    for (final Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
      final MetricName name = entry.getKey();
      if (name.name().equals("connection-count")
          && name.group().equals("consumer-metrics")
          && MAIN_CONSUMER.matcher(name.tags().getOrDefault("client-id", "")).matches()) {
        consumers++;
        if (entry.getValue().metricValue() instanceof Number count && count.doubleValue() < 1) {
          unconnected++;
        }
      }
    }
    return new Count(unconnected, consumers);
  }

  /** {@code unconnected} of {@code consumers} main consumers have no connection. */
  record Count(int unconnected, int consumers) {}
}
