package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** The stream threads' main consumers' connections, read from Kafka Streams' client metrics. */
class ConsumerConnectionsTest {

  private static final String THREAD = "app-1b2c-StreamThread-";

  private final Map<MetricName, Metric> metrics = new HashMap<>();

  @Test
  void shouldCountTheMainConsumersWithoutAConnection() {
    connections("consumer-metrics", THREAD + "1-consumer", 2.0);
    connections("consumer-metrics", THREAD + "2-consumer", 0.0);

    assertThat(ConsumerConnections.unconnected(metrics))
        .isEqualTo(new ConsumerConnections.Count(1, 2));
  }

  @Test
  void shouldLeaveOutRestoreConsumersProducersAndAdmins() {
    connections("consumer-metrics", THREAD + "1-consumer", 1.0);
    // idle restore consumers and admins hold no connection while all is well
    connections("consumer-metrics", THREAD + "1-restore-consumer", 0.0);
    connections("producer-metrics", THREAD + "1-producer", 0.0);
    connections("admin-client-metrics", "app-1b2c-admin", 0.0);

    assertThat(ConsumerConnections.unconnected(metrics))
        .isEqualTo(new ConsumerConnections.Count(0, 1));
  }

  private void connections(final String group, final String clientId, final double count) {
    final MetricName name =
        new MetricName(
            "connection-count", group, "open connections", Map.of("client-id", clientId));
    metrics.put(
        name,
        new Metric() {
          @Override
          public MetricName metricName() {
            return name;
          }

          @Override
          public Object metricValue() {
            return count;
          }
        });
  }
}
