package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.PacedProducer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM ends the processor within {@code shutdown.timeout} whatever the state, as an orchestrator
 * expects of a pod it stops, and the log says what was left uncommitted: with MongoDB away in the
 * middle of a write, with Kafka and MongoDB gone, and while it waits for its input topic. Nothing
 * is lost: what was left is processed at the next start.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ShutdownIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

  /**
   * What a JVM needs besides the timeout to end on two busy cores: its shutdown hooks' own work
   * (closing the HTTP listener and the clients) and the exit. Far below what an unbounded stop
   * takes with MongoDB away: the batch's write timeout (30 s) and then the consumer's close.
   */
  private static final Duration EXIT_ALLOWANCE = Duration.ofSeconds(12);

  private static final Pattern PENDING = Pattern.compile("(?m)^bucketer_sink_pending (\\S+)$");

  private static LocalInfrastructure infrastructure;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start(ResilienceSettings.broker());
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldStopInTimeWhileMongoDbHoldsAWriteAndLoseNothing() throws Exception {
    final List<Reading> readings = readings(4_000);
    final URI mongo = URI.create(infrastructure.mongoUri());
    try (CuttableTcpProxy proxy = CuttableTcpProxy.start(mongo.getHost(), mongo.getPort())) {
      final Map<String, String> settings = new HashMap<>();
      // The default write timeout, 30 s, is also the driver's wait for a server: a write that
      // starts while MongoDB is cut off holds the sink far longer than the stop may take.
      settings.put(MongoSettings.URI, "mongodb://127.0.0.1:" + proxy.port());
      settings.put(KafkaSettings.SHUTDOWN_TIMEOUT, SHUTDOWN_TIMEOUT.toSeconds() + "s");
      settings.put(HttpSettings.BIND_ADDRESS, LoopbackPorts.HOST);
      try (IsolatedRun run =
          new IsolatedRun(infrastructure, dir, 2, ResilienceSettings.processor(settings))) {
        final int port = LoopbackPorts.free(1).get(0);
        final ProcessorProcess processor =
            run.startProcessor("a", Map.of(HttpSettings.PORT, String.valueOf(port)));
        run.awaitConsumingBy(processor);
        proxy.cut();
        try (PacedProducer gateways =
            PacedProducer.start(infrastructure, run.inputTopic(), readings, 4_000, Map.of())) {
          assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(readings.size());
        }
        await("closed buckets waiting for MongoDB in the sink")
            .atMost(IsolatedRun.DEADLINE)
            .pollInterval(Duration.ofMillis(250))
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> sinkPending(port) > 0);

        final Instant stop = Instant.now();
        assertThat(processor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
        assertThat(Duration.between(stop, Instant.now()))
            .isLessThan(SHUTDOWN_TIMEOUT.plus(EXIT_ALLOWANCE));
        final String log = log("a-1");
        assertThat(log)
            .contains("not yet acknowledged by MongoDB, uncommitted on " + run.applicationId())
            .contains("the next start writes them again")
            .contains("bucketer stopped in");

        proxy.restore();
        final ProcessorProcess restarted = run.startProcessor("a");
        run.awaitReadingsInBuckets(readings.size(), MINUTE);
        assertThat(restarted.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
        assertThat(log("a-2"))
            .contains("kafka streams stopped: what it processed is committed")
            .doesNotContain("not yet acknowledged by MongoDB");
      }
    }
  }

  @Test
  void shouldStopInTimeWithKafkaAndMongoDbGone() throws Exception {
    final LocalInfrastructure doomed = LocalInfrastructure.start(ResilienceSettings.broker());
    try (IsolatedRun run =
        new IsolatedRun(
            doomed,
            dir,
            2,
            ResilienceSettings.processor(
                Map.of(KafkaSettings.SHUTDOWN_TIMEOUT, SHUTDOWN_TIMEOUT.toSeconds() + "s")))) {
      final ProcessorProcess processor = run.startProcessor("a");
      run.awaitConsumingBy(processor);
      try (PacedProducer gateways =
          PacedProducer.start(doomed, run.inputTopic(), readings(2_000), 4_000, Map.of())) {
        gateways.awaitDone(IsolatedRun.DEADLINE);
      }
      run.awaitReadingsInBuckets(1, MINUTE);
      doomed.close();

      final Instant stop = Instant.now();
      assertThat(processor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      assertThat(Duration.between(stop, Instant.now()))
          .isLessThan(SHUTDOWN_TIMEOUT.plus(EXIT_ALLOWANCE));
      assertThat(log("a-1")).contains("bucketer stopped in");
    }
  }

  @Test
  void shouldStopAtOnceWhileWaitingForTheInputTopic() throws Exception {
    try (IsolatedRun run =
        new IsolatedRun(
            infrastructure,
            dir,
            1,
            ResilienceSettings.processor(
                Map.of(KafkaSettings.SHUTDOWN_TIMEOUT, SHUTDOWN_TIMEOUT.toSeconds() + "s")))) {
      // The run made its own input topic: this processor is told of one nobody made.
      final ProcessorProcess processor =
          run.startProcessor(
              "a", Map.of(InputSettings.TOPIC, run.applicationId() + ".not-made-yet"));
      await("waiting for the input topic")
          .atMost(IsolatedRun.DEADLINE)
          .failFast(run::assertNoProcessorDiedOnItsOwn)
          .until(
              () -> {
                final String log = log("a-1");
                return log.contains("waiting for it to exist") && log.contains("serving /metrics");
              });

      final Instant stop = Instant.now();
      assertThat(processor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      assertThat(Duration.between(stop, Instant.now()))
          .isLessThan(SHUTDOWN_TIMEOUT.plus(EXIT_ALLOWANCE));
      assertThat(log("a-1"))
          .contains("kafka streams stopped: what it processed is committed")
          .contains("bucketer stopped in");
    }
  }

  private static List<Reading> readings(final int count) {
    return GeneratedReadings.of(
        new ReadingGenerator.Options(
            8,
            Instant.parse("2025-06-01T09:00:00Z"),
            Duration.ofSeconds(2),
            Duration.ofMillis(300),
            0.0,
            8,
            count,
            31));
  }

  /** The sink's polled and not yet acknowledged buckets, from the processor's own scrape. */
  private static double sinkPending(final int port) throws Exception {
    final HttpResponse<String> scrape =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    final Matcher pending = PENDING.matcher(scrape.body());
    return pending.find() ? Double.parseDouble(pending.group(1)) : 0;
  }

  private String log(final String name) throws Exception {
    return Files.readString(dir.resolve(name + ".log"), StandardCharsets.UTF_8);
  }
}
