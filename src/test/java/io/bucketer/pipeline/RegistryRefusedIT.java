package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.bucketer.app.BucketerApp;
import io.bucketer.config.InputSettings;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registry that refuses the processor (401: its credentials are wrong or missing) is a cause no
 * retry fixes: the processor ends with one line naming the registry and the refusal, instead of
 * replacing its stream thread for ever or dead-lettering good readings.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RegistryRefusedIT {

  private static LocalInfrastructure infrastructure;
  private static HttpServer refusing;

  @TempDir Path stateDir;

  @BeforeAll
  static void start() throws Exception {
    infrastructure = LocalInfrastructure.start();
    refusing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    refusing.createContext(
        "/",
        exchange -> {
          exchange.sendResponseHeaders(401, -1);
          exchange.close();
        });
    refusing.start();
  }

  @AfterAll
  static void stop() {
    refusing.stop(0);
    infrastructure.close();
  }

  @Test
  void shouldEndWithOneLineWhenTheRegistryRefusesTheProcessor() throws Exception {
    final String url = "http://127.0.0.1:" + refusing.getAddress().getPort();
    try (InProcessRun run =
        new InProcessRun(
            infrastructure.endpoints(),
            stateDir,
            1,
            Map.of(InputSettings.SCHEMA_REGISTRY_URL, url))) {
      // Framed with the ids of the real registry, which the gateways reach; the processor cannot.
      run.send(
          GeneratedReadings.of(
              new ReadingGenerator.Options(
                  2,
                  Instant.parse("2025-06-01T09:00:00Z"),
                  Duration.ofSeconds(5),
                  Duration.ZERO,
                  0,
                  0,
                  20,
                  5)));
      try (BucketerApp app = BucketerApp.start(run.config(), new SimpleMeterRegistry())) {
        final String line =
            app.whenFailedFatally()
                .toCompletableFuture()
                .get(InProcessRun.DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertThat(line)
            .startsWith("schema registry " + url)
            .contains("authentication failed: HTTP 401")
            .doesNotContain("Exception")
            .doesNotContain("\n");
        assertThat(app.notReadyReason()).contains(line);
        assertThat(app.isHealthy()).isFalse();
      }
      assertThat(run.deadLetters()).isEmpty();
    }
  }
}
