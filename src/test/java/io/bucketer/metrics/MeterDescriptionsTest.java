package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.metrics.MeterDescriptions.Family;
import io.bucketer.tenants.TenantLimits;
import io.bucketer.tenants.TenantSeriesCounts;
import io.bucketer.testing.Promtool;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class MeterDescriptionsTest {

  @Test
  void shouldGiveEveryBucketerMeterOnMetricsItsHelpTextAndType() {
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MeterDescriptions.applyTo(registry);
    registerEveryMeter(registry);

    final Map<String, String> help = new HashMap<>();
    final Map<String, String> types = new HashMap<>();
    for (final String line : registry.scrape().split("\n")) {
      if (line.startsWith("# HELP bucketer_")) {
        final String[] parts = line.split(" ", 4);
        help.put(parts[2], parts.length == 4 ? parts[3] : "");
      } else if (line.startsWith("# TYPE bucketer_")) {
        final String[] parts = line.split(" ");
        types.put(parts[2], parts[3]);
      }
    }

    for (final Family family : MeterDescriptions.families()) {
      assertThat(help)
          .as("the HELP line of %s", family.prometheusName())
          .containsEntry(family.prometheusName(), family.help());
      assertThat(types)
          .as("the TYPE line of %s", family.prometheusName())
          .containsEntry(family.prometheusName(), family.kind().prometheusType());
    }
    assertThat(help.values()).as("a bucketer_ family without HELP text").doesNotContain("");
    assertThat(help.keySet())
        .as("every bucketer_ family on /metrics is described (a timer's _max with its timer)")
        .allSatisfy(
            name ->
                assertThat(
                        MeterDescriptions.families().stream()
                            .anyMatch(
                                family ->
                                    name.equals(family.prometheusName())
                                        || name.equals(family.prometheusName() + "_max")))
                    .as(name)
                    .isTrue());
  }

  @Test
  void shouldPassPromtoolsLintOfEveryBucketerMeter() throws Exception {
    final Optional<Promtool> promtool = Promtool.onPath();
    assumeTrue(
        promtool.isPresent(),
        Promtool.MISSING + ": promtool check metrics of every bucketer meter is skipped");
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MeterDescriptions.applyTo(registry);
    registerEveryMeter(registry);

    final Promtool.Result lint =
        promtool.get().run(Path.of("."), registry.scrape(), "check", "metrics");

    assertThat(lint.output()).as("promtool check metrics").doesNotContain("bucketer_");
    assertThat(lint.exitCode()).as("promtool check metrics:%n%s", lint.output()).isZero();
  }

  @Test
  void shouldListEveryMeterInTheOperationsPageAsItDescribesItself() throws Exception {
    final String operations = Files.readString(Path.of("docs/operations.md"));

    assertThat(operations)
        .as("docs/operations.md's meter table, made from MeterDescriptions.markdownRows()")
        .contains(MeterDescriptions.markdownRows());
  }

  @Test
  void shouldLeaveOtherMetersAsTheyRegistered() {
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MeterDescriptions.applyTo(registry);

    registry.counter("kafka.other").increment();

    assertThat(registry.find("kafka.other").counter().getId().getDescription()).isNull();
    assertThat(MeterDescriptions.of("kafka.other")).isNull();
  }

  /** Each meter bucketer registers, through the code that registers it in a run. */
  private static void registerEveryMeter(final PrometheusMeterRegistry registry) {
    final BucketerMetrics metrics = new BucketerMetrics(registry);
    for (final ReadingOutcome outcome : ReadingOutcome.values()) {
      metrics.reading(outcome);
    }
    for (final StateOperation operation : StateOperation.values()) {
      metrics.stateOperation(operation);
    }
    metrics.deadLetter("too-late");
    metrics.bucketEmitted("1m");
    metrics.streamThreadRestarted("timeout");
    metrics.processStalled("nothing");
    metrics.stateWiped("no-marker");
    metrics.openBucketsChanged(1);
    metrics.senmlValueSkipped("string");
    metrics.sparkplugMessage("NDATA");
    metrics.sparkplugSeqGap("plant/edge-1");
    metrics.sparkplugMetricsSkipped("null", 2);
    metrics.malformedSketchRead();
    metrics.tenantSeries(new TenantSeriesCounts(TenantLimits.DEFAULT));
    // RunCommand counts the access gate's refusals so.
    registry.counter(BucketerMetrics.HTTP_AUTH_FAILURES, "reason", "missing").increment();

    final SinkMeters sink = new SinkMeters(registry);
    sink.batchPolled(3);
    sink.visible(LongStream.of(1_000), 1_500);
    sink.lag(4);
    sink.retried();
    sink.writeEnded(sink.writeStarted(), SinkMeters.WriteOutcome.SUCCESS);
    sink.written("1m", 3);

    ReadinessGauge.start(registry, () -> true, Duration.ofHours(1)).close();
  }
}
