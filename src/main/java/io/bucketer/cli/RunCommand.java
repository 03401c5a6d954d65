package io.bucketer.cli;

import io.bucketer.app.BucketerApp;
import io.bucketer.app.ClusterWait;
import io.bucketer.config.BucketerConfig;
import io.bucketer.http.Endpoint;
import io.bucketer.http.HttpAnswer;
import io.bucketer.http.HttpSecurity;
import io.bucketer.http.OpsServer;
import io.bucketer.http.SeriesApi;
import io.bucketer.http.WebPage;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.MeterDescriptions;
import io.bucketer.metrics.ProcessMeters;
import io.bucketer.metrics.ReadinessGauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bucketer run}: the processor, against a real cluster, registry and MongoDB. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the processor: readings from Kafka into bucket documents in MongoDB.",
      "Required settings: bootstrap.servers, schema.registry.url, mongodb.uri.",
      "Serves /metrics, /health, /ready, the query API (/api/v1/series) and a chart page (/ui/)",
      "on http.port (8080)."
    })
final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

  /**
   * How often bucketer_ready is brought up to date: well within a scrape interval, and no more than
   * one MongoDB ping per period beside the probes' (the ping's result is cached for a second).
   */
  private static final Duration READINESS_GAUGE_PERIOD = Duration.ofSeconds(5);

  @Mixin ConfigOptions configOptions;

  @Override
  public Integer call() throws Exception {
    final BucketerConfig config = configOptions.load();
    final CountDownLatch stopped = new CountDownLatch(1);
    final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MeterDescriptions.applyTo(meters);
    final AutoCloseable processMeters = ProcessMeters.bindTo(meters);
    final HttpSecurity security = config.http().security();
    final OpsServer ops =
        OpsServer.bind(
            config.http().address(),
            security,
            reason ->
                meters.counter(BucketerMetrics.HTTP_AUTH_FAILURES, "reason", reason).increment());
    final AtomicReference<BucketerApp> started = new AtomicReference<>();
    // Registered before anything starts, so that a stop during the start ends at once and says so.
    final Thread shutdown =
        new Thread(
            () -> {
              ops.close();
              final BucketerApp app = started.get();
              if (app == null) {
                LOG.info("stopped before processing started: nothing to commit");
              } else {
                app.close();
              }
              stopped.countDown();
            },
            "bucketer-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdown);
    // Served while the start waits for the cluster: alive, not ready, and why.
    final ClusterWait clusterWait = new ClusterWait();
    final AtomicReference<Endpoint> seriesApi = new AtomicReference<>();
    final Supplier<Optional<String>> notReady =
        () ->
            started.get() == null
                ? Optional.of(clusterWait.waitingReason().orElse("starting"))
                : started.get().notReadyReason();
    final ReadinessGauge readiness =
        ReadinessGauge.start(meters, () -> notReady.get().isEmpty(), READINESS_GAUGE_PERIOD);
    ops.serve(
        meters::scrape,
        () -> started.get() == null || started.get().isHealthy(),
        notReady,
        Map.of(
            SeriesApi.PATH,
            call ->
                seriesApi.get() == null
                    ? HttpAnswer.error(503, "starting")
                    : seriesApi.get().answer(call),
            "/",
            new WebPage()));
    final BucketerApp app;
    try {
      app =
          BucketerApp.start(
              config,
              meters,
              new HostInfo(config.http().advertisedHost(), ops.port()),
              clusterWait);
    } catch (RuntimeException e) {
      readiness.close();
      if (endedByItself(shutdown)) {
        ops.close();
      }
      throw e;
    }
    seriesApi.set(app.seriesApi(config.http().queryLimits(), ops.peerAccess()));
    started.set(app);
    LOG.info(
        "serving /metrics, /health, /ready, {} and the chart page {} on port {}, advertised as {}:{}",
        SeriesApi.PATH,
        WebPage.PATH,
        ops.port(),
        config.http().advertisedHost(),
        ops.port());
    warnAboutExposure(security, config.http().advertisedHost(), ops.port());
    // A cause retrying cannot fix (an ACL missing) ends the process: the app logged its line.
    final CompletableFuture<String> fatal = app.whenFailedFatally().toCompletableFuture();
    fatal.thenRun(stopped::countDown);
    stopped.await();
    if (fatal.isDone() && endedByItself(shutdown)) {
      ops.close();
      app.close();
      readiness.close();
      processMeters.close();
      return CommandLines.FATAL_DEPENDENCY_FAILURE;
    }
    readiness.close();
    processMeters.close();
    return 0;
  }

  /** What a reader of the start's log must know about who can reach the data. */
  private static void warnAboutExposure(
      final HttpSecurity security, final String advertisedHost, final int port) {
    switch (security.access().mode()) {
      case OPEN ->
          LOG.warn(
              "http.auth.mode=open: the query API and the chart page answer anyone who reaches"
                  + " port {}, with every series",
              port);
      case CREDENTIALS -> {
        if (security.tls().isEmpty()) {
          LOG.warn(
              "http.auth.mode=credentials without TLS: passwords and tokens cross the network"
                  + " in clear text; set http.tls.cert.file and http.tls.key.file");
        }
      }
      case LOOPBACK -> {
        if (security.access().peerToken().isEmpty() && !isLoopback(advertisedHost)) {
          LOG.warn(
              "the query API answers only this host (http.auth.mode=loopback) and no"
                  + " http.auth.peer.token.file is set: with several instances on several hosts, a"
                  + " query for a series another instance holds gets its 403 (docs/security.md)");
        }
      }
    }
  }

  private static boolean isLoopback(final String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** False when a signal's shutdown is under way already: it closes the app itself. */
  private static boolean endedByItself(final Thread shutdown) {
    try {
      return Runtime.getRuntime().removeShutdownHook(shutdown);
    } catch (IllegalStateException e) {
      return false;
    }
  }
}
