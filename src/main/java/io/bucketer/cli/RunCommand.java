package io.bucketer.cli;

import io.bucketer.app.BucketerApp;
import io.bucketer.config.BucketerConfig;
import io.bucketer.http.OpsServer;
import io.bucketer.http.StatisticsEndpoint;
import io.bucketer.metrics.ProcessMeters;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
      "Serves /metrics, /health and /ready on http.port (8080)."
    })
final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

  /** The longest range one statistics request may cover: a year of minute edges at most. */
  private static final Duration MAX_QUERY_RANGE = Duration.ofDays(366);

  @Mixin ConfigOptions configOptions;

  @Override
  public Integer call() throws Exception {
    final BucketerConfig config = configOptions.load();
    final CountDownLatch stopped = new CountDownLatch(1);
    final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final AutoCloseable processMeters = ProcessMeters.bindTo(meters);
    final BucketerApp app = BucketerApp.start(config, meters);
    final OpsServer ops;
    try {
      ops =
          OpsServer.start(
              config.httpAddress(),
              meters::scrape,
              app::isHealthy,
              app::notReadyReason,
              Map.of(
                  StatisticsEndpoint.PATH,
                  new StatisticsEndpoint(app.storedStatistics(), MAX_QUERY_RANGE)));
    } catch (RuntimeException e) {
      // A taken port must stop the process, not leave a processor running without its endpoints.
      app.close();
      throw e;
    }
    LOG.info(
        "serving /metrics, /health, /ready and {} on port {}", StatisticsEndpoint.PATH, ops.port());
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  ops.close();
                  app.close();
                  stopped.countDown();
                },
                "bucketer-shutdown"));
    stopped.await();
    processMeters.close();
    return 0;
  }
}
