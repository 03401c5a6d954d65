package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.WindowSettings;
import io.bucketer.metrics.ProcessMeters;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.MongoThroughProxy;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations endpoints of a running processor, wired as {@code bucketer run} wires them: the
 * scraped counters agree with what was produced and stored, and {@code /ready} follows MongoDB
 * (reached through a proxy the test cuts) while {@code /health} stays up.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OpsEndpointsIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;
  private final HttpClient http = HttpClient.newHttpClient();
  private final PrometheusMeterRegistry meters =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private CuttableTcpProxy proxy;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @BeforeEach
  void startProxy() {
    final URI target = URI.create(infrastructure.mongoUri());
    proxy = CuttableTcpProxy.start(target.getHost(), target.getPort());
  }

  @AfterEach
  void stopProxy() {
    proxy.close();
    meters.close();
  }

  @Test
  void shouldScrapeCountersThatMatchTheReadingsProducedAndTheDocumentsStored() throws Exception {
    // In order, no jitter: every reading is on time.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                6, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 1_800, 7));
    ProcessMeters.bindTo(meters);

    try (InProcessRun run = newRun();
        BucketerApp app = run.start(meters);
        OpsServer ops = startOps(app)) {
      final StoredDocuments store = run.store();
      run.send(readings);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      // The sink counts a batch after MongoDB acknowledged it, a moment after it is readable.
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  PrometheusText.parse(get(ops, "/metrics").body())
                          .value("bucketer_sink_buckets_written_total{granularity=\"1h\"}")
                      == store.documents(HOUR));

      final String scrape = get(ops, "/metrics").body();
      final PrometheusText metrics = PrometheusText.parse(scrape);
      assertThat(metrics.value("bucketer_readings_total{outcome=\"on-time\"}"))
          .isEqualTo(readings.size());
      assertThat(metrics.value("bucketer_sink_buckets_written_total{granularity=\"1m\"}"))
          .isEqualTo(store.documents(MINUTE));
      assertThat(metrics.value("bucketer_buckets_emitted_total{granularity=\"1m\"}"))
          .isEqualTo(store.documents(MINUTE));
      assertThat(metrics.value("bucketer_buckets_emitted_total{granularity=\"1h\"}"))
          .isEqualTo(store.documents(HOUR));
      assertThat(metrics.value("bucketer_sink_batch_size_buckets_sum"))
          .isEqualTo(store.documents(MINUTE) + store.documents(HOUR));
      assertThat(scrape)
          .contains("bucketer_sink_write_latency_seconds_bucket{outcome=\"success\",le=")
          .contains("jvm_memory_used_bytes")
          .contains("jvm_gc_")
          .contains("process_uptime_seconds")
          .contains("kafka_consumer_fetch_manager_records_consumed_total");
    }
  }

  @Test
  void shouldFollowMongoDbWhenReadyWhileHealthStaysUp() throws Exception {
    try (InProcessRun run = newRun();
        BucketerApp app = run.start(meters);
        OpsServer ops = startOps(app)) {
      await().atMost(DEADLINE).until(() -> get(ops, "/ready").statusCode() == 200);
      assertThat(get(ops, "/health").statusCode()).isEqualTo(200);

      proxy.cut();

      await().atMost(DEADLINE).until(() -> get(ops, "/ready").statusCode() == 503);
      // The reason names the server and the cause, not only that the ping timed out.
      assertThat(get(ops, "/ready").body())
          .contains("MongoDB 127.0.0.1:" + proxy.port() + ": unreachable: ");
      assertThat(get(ops, "/health").statusCode()).isEqualTo(200);

      proxy.restore();

      await().atMost(DEADLINE).until(() -> get(ops, "/ready").statusCode() == 200);
      assertThat(get(ops, "/health").statusCode()).isEqualTo(200);
    }
  }

  /** As {@code bucketer run} starts it. */
  private OpsServer startOps(final BucketerApp app) {
    return OpsServer.start(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        meters::scrape,
        app::isHealthy,
        app::notReadyReason);
  }

  private HttpResponse<String> get(final OpsServer ops, final String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ops.port() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Its own application id, topics and database; MongoDB through the proxy, read back directly by
   * {@link InProcessRun#store()}.
   */
  private InProcessRun newRun() throws Exception {
    final Map<String, String> overrides = new HashMap<>(MongoThroughProxy.settings(proxy));
    overrides.put(WindowSettings.IDLE_TIMEOUT, "2s");
    return new InProcessRun(infrastructure.endpoints(), stateDir, 2, overrides);
  }
}
