package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.Endpoints;
import io.bucketer.testing.RunSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster that goes away while the processor runs: Kafka Streams stays RUNNING while its
 * consumers reconnect, so readiness asks the consumers' own connection counts, and says so.
 */
@Tag("integration")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LostClusterIT {

  @TempDir Path stateDir;

  @Test
  void shouldBeNotReadySayingTheConsumersLostTheClusterOnceItGoes() throws Exception {
    try (EmbeddedMongoServer mongo = EmbeddedMongoServer.start()) {
      final EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
      final Map<String, String> settings =
          RunSettings.of(
              RunSettings.newId(),
              new Endpoints(
                  broker.bootstrapServers(), "http://127.0.0.1:1", mongo.connectionString()));
      settings.put(InputSettings.FORMAT, "json");
      settings.put("kafka.state.dir", stateDir.toString());
      final BucketerConfig config = new BucketerConfig(settings);
      broker.createTopic(config.inputTopic(), 1, Map.of());
      final String line =
          "kafka at "
              + broker.bootstrapServers()
              + ": unreachable: 1 of 1 stream threads' consumers have no connection to the cluster";
      try (CapturedLog captured = CapturedLog.of(Level.INFO, "io.bucketer.app");
          BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
        await("ready")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> app.notReadyReason().isEmpty());

        broker.close();

        await("not ready, saying why")
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> app.notReadyReason().filter(reason -> reason.equals(line)).isPresent());
        assertThat(app.isHealthy()).isTrue();
        // said in the log too, whether or not anyone asks /ready, and once (not every look)
        await("the line logged")
            .atMost(Duration.ofSeconds(30))
            .until(() -> captured.text().contains(line));
        assertThat(captured.text().lines().filter(logged -> logged.contains(line))).hasSize(1);
      }
    }
  }
}
