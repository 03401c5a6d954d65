package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bucketer.config.HttpSettings;
import io.bucketer.config.InputSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.Promtool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric that an alert of {@value MetricReferences#ALERTS} or a panel of {@value
 * MetricReferences#DASHBOARD} selects is one that {@code bucketer run} exports: read from a live
 * scrape of a processor in a child JVM, after the events that create the meters born of an event (a
 * dead letter by reason, a write to MongoDB, a wiped state) have happened. A renamed meter, or an
 * alert written against a name nobody exports, fails here rather than staying silent in Prometheus.
 * The same scrape then passes Prometheus' own lint, {@code promtool check metrics}, for every
 * {@code bucketer_} family (a HELP text on each, the suffixes its type asks for), where promtool is
 * on the PATH.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlertAndDashboardMetricsIT {

  private static LocalInfrastructure infrastructure;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private final HttpClient http = HttpClient.newHttpClient();

  /** The first test's last scrape of a live processor, for the lint. */
  private String liveScrape;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  @Order(1)
  void shouldExportEveryMetricThatAnAlertOrAPanelSelects() throws Exception {
    final MetricReferences references = MetricReferences.in(Path.of(""));
    try (IsolatedRun run =
        new IsolatedRun(
            infrastructure,
            dir,
            2,
            Map.of(
                InputSettings.FORMAT,
                "json",
                WindowSettings.IDLE_TIMEOUT,
                "2s",
                // A reading an hour late is then too late, not merged.
                WindowSettings.LATENESS_HORIZON,
                "1m"))) {
      // State left without a record of its owner: the start wipes it, and counts the wipe.
      Files.createDirectories(
          dir.resolve("a").resolve("state").resolve(run.applicationId()).resolve("0_0"));
      final int port = LoopbackPorts.free(1).get(0);
      final ProcessorProcess processor =
          run.startProcessor(
              "a",
              Map.of(
                  HttpSettings.PORT,
                  String.valueOf(port),
                  HttpSettings.BIND_ADDRESS,
                  LoopbackPorts.HOST));
      run.awaitConsumingBy(processor);

      send(
          run.inputTopic(),
          List.of(
              reading("s1", "2025-06-01T09:00:05Z", 1.0),
              reading("s1", "2025-06-01T09:00:35Z", 2.0),
              // closes [09:00, 09:01) and [09:00, 10:00): buckets for the sink to write
              reading("s1", "2025-06-01T10:02:00Z", 3.0),
              // beyond those windows' lateness horizon: too-late, a dead letter
              reading("s1", "2025-06-01T09:00:50Z", 4.0),
              // not JSON: malformed-json, a dead letter
              new Message("s2", "{not json")));

      await("every metric the alerts and the dashboard select, in the scrape")
          .atMost(IsolatedRun.DEADLINE)
          .pollInterval(Duration.ofMillis(500))
          .failFast(run::assertNoProcessorDiedOnItsOwn)
          .untilAsserted(
              () ->
                  assertThat(references.missingFrom(MetricReferences.exportedBy(scrape(port))))
                      .as(
                          "metrics selected in %s or %s but not exported by bucketer run",
                          MetricReferences.ALERTS, MetricReferences.DASHBOARD)
                      .isEmpty());

      final String scrape = scrape(port);
      // The events happened as meant, and bucketer_ready follows /ready in a real run.
      assertThat(scrape)
          .contains("bucketer_state_wipes_total{cause=\"no-marker\"} 1.0")
          .contains("bucketer_dead_letters_total{reason=\"malformed-json\"} 1.0")
          .contains("bucketer_dead_letters_total{reason=\"too-late\"} 1.0")
          .contains("bucketer_readings_total{outcome=\"too-late\"} 1.0");
      await("bucketer_ready 1 once /ready answers 200")
          .atMost(IsolatedRun.DEADLINE)
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> status(port, "/ready") == 200 && scrape(port).contains("\nbucketer_ready 1.0"));
      liveScrape = scrape(port);
    }
  }

  @Test
  @Order(2)
  void shouldPassPromtoolsLintOfTheLiveScrapeForEveryBucketerFamily() throws Exception {
    final Optional<Promtool> promtool = Promtool.onPath();
    assumeTrue(
        promtool.isPresent(),
        Promtool.MISSING + ": promtool check metrics of a live scrape is skipped");
    assertThat(liveScrape).as("the live scrape the first test took").isNotNull();

    final Promtool.Result lint = promtool.get().run(dir, liveScrape, "check", "metrics");

    final List<String> findings = lint.output().lines().filter(line -> !line.isBlank()).toList();
    // Other libraries' families are theirs to mend: listed, not failed.
    findings.forEach(finding -> System.out.println("promtool check metrics: " + finding));
    assertThat(findings)
        .as("promtool check metrics on bucketer's families")
        .noneMatch(finding -> finding.contains("bucketer_"))
        .noneMatch(finding -> finding.contains("error while linting"));
  }

  /** An input record's key and value. */
  private record Message(String key, String value) {}

  private static Message reading(final String sensor, final String time, final double value) {
    return new Message(
        sensor,
        "{\"sensor_id\":\""
            + sensor
            + "\",\"metric\":\"temperature\",\"timestamp\":\""
            + time
            + "\",\"value\":"
            + value
            + "}");
  }

  private static void send(final String topic, final List<Message> records) throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers()),
            new StringSerializer(),
            new StringSerializer())) {
      for (final Message record : records) {
        // One at a time, in order: the too-late reading must come after the one that closes.
        producer
            .send(new ProducerRecord<>(topic, record.key(), record.value()))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }

  private String scrape(final int port) throws Exception {
    final HttpResponse<String> response = get(port, "/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private int status(final int port, final String path) throws Exception {
    return get(port, path).statusCode();
  }

  private HttpResponse<String> get(final int port, final String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://" + LoopbackPorts.HOST + ":" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
