package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.metrics.MetricReferences.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricReferencesTest {

  private static final String SCRAPE =
      """
      # HELP bucketer_ready 1 while /ready answers 200
      # TYPE bucketer_ready gauge
      bucketer_ready 1.0
      # TYPE bucketer_readings_total counter
      bucketer_readings_total{outcome="on-time"} 12.0
      # TYPE latency_seconds histogram
      latency_seconds_bucket{le="0.5"} 1
      latency_seconds_bucket{le="+Inf"} 2
      latency_seconds_count 2
      latency_seconds_sum 1.5
      """;

  @Test
  void shouldReadTheMetricNamesOfAScrapesSamples() {
    assertThat(MetricReferences.exportedBy(SCRAPE))
        .containsExactlyInAnyOrder(
            "bucketer_ready",
            "bucketer_readings_total",
            "latency_seconds_bucket",
            "latency_seconds_count",
            "latency_seconds_sum");
  }

  @Test
  void shouldListWhatEveryAlertAndPanelSelectsWithWhereItIsSelected() throws Exception {
    final MetricReferences references = MetricReferences.in(Path.of(""));

    final long alerts =
        Files.readString(Path.of(MetricReferences.ALERTS))
            .lines()
            .filter(line -> line.trim().startsWith("- alert: "))
            .count();
    assertThat(
            references.all().stream()
                .map(Reference::where)
                .filter(where -> where.startsWith(MetricReferences.ALERTS + ", alert "))
                .distinct())
        .hasSize((int) alerts);
    assertThat(references.all())
        .contains(
            new Reference("bucketer_ready", MetricReferences.ALERTS + ", alert BucketerNotReady"),
            new Reference(
                "process_uptime_seconds", MetricReferences.ALERTS + ", alert BucketerStateWiped"),
            new Reference(
                "bucketer_sink_write_latency_seconds_bucket",
                MetricReferences.DASHBOARD + ", panel \"Sink write p99\""),
            new Reference(
                "kafka_consumer_fetch_manager_records_lag",
                MetricReferences.DASHBOARD + ", panel \"Consumer lag\""));
  }

  /** What the IT prints when a selected metric is not exported: the name, and where it is used. */
  @Test
  void shouldNameEachMissingMetricWithWhereItIsSelected() {
    final MetricReferences references = MetricReferences.in(Path.of(""));
    final Set<String> exported = MetricReferences.exportedBy(SCRAPE);

    assertThat(references.missingFrom(exported))
        .contains(
            "bucketer_dead_letters_total in "
                + MetricReferences.DASHBOARD
                + ", panel \"Dead letters / s\"",
            "bucketer_state_wipes_total in "
                + MetricReferences.ALERTS
                + ", alert BucketerStateWiped")
        // Made by Prometheus itself: never missing.
        .noneMatch(line -> line.startsWith("up "))
        .noneMatch(line -> line.startsWith("bucketer_ready "));
  }

  @Test
  void shouldSayWhenAHistogramIsSelectedByItsOwnName() {
    final MetricReferences references =
        new MetricReferences(
            List.of(
                new Reference("latency_seconds", "a panel"),
                new Reference("latency_seconds_bucket", "another panel"),
                new Reference("recorded:rate5m", "an alert")),
            Set.of("recorded:rate5m"));

    assertThat(references.missingFrom(MetricReferences.exportedBy(SCRAPE)))
        .containsExactly(
            "latency_seconds in a panel (a histogram: select latency_seconds_bucket, _sum or"
                + " _count)");
  }
}
