package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class ProducedRecordsTest {

  private static final String APP = "bench-app";

  @Test
  void shouldSumEveryProducersRecordsSentByTopic() {
    final Map<MetricName, Metric> metrics = new HashMap<>();
    put(
        metrics,
        "producer-topic-metrics",
        "record-send-total",
        "StreamThread-1",
        APP + "-a-repartition",
        10);
    put(
        metrics,
        "producer-topic-metrics",
        "record-send-total",
        "StreamThread-2",
        APP + "-a-repartition",
        5);
    put(
        metrics,
        "producer-topic-metrics",
        "record-send-total",
        "StreamThread-1",
        APP + "-s-changelog",
        3);
    put(
        metrics,
        "producer-topic-metrics",
        "record-send-rate",
        "StreamThread-1",
        APP + "-s-changelog",
        99);
    put(
        metrics,
        "consumer-fetch-manager-metrics",
        "records-consumed-total",
        "StreamThread-1",
        "in",
        99);

    final ProducedRecords written = ProducedRecords.of(APP, metrics);

    assertThat(written.byTopic())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(APP + "-a-repartition", 15L, APP + "-s-changelog", 3L));
  }

  @Test
  void shouldListTopicsNothingWasWrittenToAndTotalTheChangelogs() {
    final ProducedRecords written =
        new ProducedRecords(
                APP,
                Map.of(
                    APP + "-a-repartition",
                    14L,
                    APP + "-s-changelog",
                    3L,
                    "out",
                    2L,
                    APP + "-t-changelog",
                    4L))
            .including(List.of("out", "dead-letters"));

    assertThat(written.to("out")).isEqualTo(2);
    assertThat(written.to("dead-letters")).isZero();
    assertThat(written.topics()).contains("dead-letters");
    assertThat(written.changelogs()).isEqualTo(7);
  }

  @Test
  void shouldListRepartitionTopicsThenChangelogsThenTheRestUnderShortNames() {
    final ProducedRecords written =
        new ProducedRecords(
            APP,
            Map.of(
                "bench.buckets",
                1L,
                APP + "-z-store-changelog",
                1L,
                APP + "-a-store-changelog",
                1L,
                APP + "-by-series-repartition",
                1L));

    assertThat(written.topics().stream().map(written::shortName))
        .containsExactly(
            "by-series-repartition", "a-store-changelog", "z-store-changelog", "bench.buckets");
  }

  private static void put(
      final Map<MetricName, Metric> metrics,
      final String group,
      final String name,
      final String clientId,
      final String topic,
      final double value) {
    final MetricName metricName =
        new MetricName(name, group, "", Map.of("client-id", clientId, "topic", topic));
    metrics.put(
        metricName,
        new Metric() {
          @Override
          public MetricName metricName() {
            return metricName;
          }

          @Override
          public Object metricValue() {
            return value;
          }
        });
  }
}
