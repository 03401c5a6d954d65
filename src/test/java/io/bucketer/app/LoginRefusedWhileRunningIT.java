package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.bucketer.cli.ReportedRefusalFilter;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.RunSettings;
import io.bucketer.testing.SecuredKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A login the cluster refuses while the processor runs (its password changed, and the broker makes
 * clients log in again every few seconds): the stream threads or the sink fail on it, and the
 * processor ends with the one line, as at start, instead of retrying a login that cannot succeed.
 */
@Tag("integration")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LoginRefusedWhileRunningIT {

  private static final String BUCKETER = "bucketer";

  @TempDir Path dir;

  @Test
  void shouldFailFatallyWithTheOneLineWhenTheLoginIsRefusedWhileRunning() throws Exception {
    final SecuredKafka kafka =
        SecuredKafka.start(
            dir.resolve("tls"), Map.of("connections.max.reauth.ms", "2000"), BUCKETER);
    try (LocalInfrastructure infrastructure = LocalInfrastructure.around(kafka)) {
      final Map<String, String> settings =
          RunSettings.of(RunSettings.newId(), infrastructure.endpoints());
      settings.putAll(kafka.bucketerSettings(BUCKETER));
      settings.put(InputSettings.FORMAT, "json");
      settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", dir.resolve("state").toString());
      final BucketerConfig config = new BucketerConfig(settings);
      kafka.broker().createTopic(config.inputTopic(), 1, Map.of());
      // the README's ACLs grant no CREATE: an administrator makes bucketer's topics
      kafka
          .broker()
          .createTopic(
              config.bucketsTopic(),
              config.seriesPartitions(),
              Map.of("cleanup.policy", "compact"));
      kafka.broker().createTopic(config.deadLetterTopic(), config.seriesPartitions(), Map.of());
      kafka.grant(RequiredAcls.bindings("User:" + BUCKETER, RequiredAcls.Names.of(config)));

      final String log;
      // the product's filter (on logback.xml's appender), which the tests' configuration lacks
      try (CapturedLog captured =
              CapturedLog.of(Level.WARN, "org.apache.kafka", "io.bucketer")
                  .filteredBy(new ReportedRefusalFilter());
          BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
        await("running")
            .atMost(Duration.ofSeconds(60))
            .until(() -> app.streamsState() == KafkaStreams.State.RUNNING);

        kafka
            .admin()
            .alterUserScramCredentials(
                List.of(
                    new UserScramCredentialUpsertion(
                        BUCKETER,
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                        "changed-elsewhere")))
            .all()
            .get(30, TimeUnit.SECONDS);

        assertThat(app.whenFailedFatally().toCompletableFuture().get(45, TimeUnit.SECONDS))
            .isEqualTo(
                "kafka at "
                    + kafka.bootstrapServers()
                    + ": authentication failed: SCRAM-SHA-512 as user '"
                    + BUCKETER
                    + "'");
        assertThat(app.isHealthy()).isFalse();
        log = captured.text();
      }
      // Kafka's own lines name the failed login, but none carries a stack trace of it
      assertThat(log)
          .contains("authentication failed: SCRAM-SHA-512 as user 'bucketer'")
          .doesNotContain("SaslAuthenticationException");
    }
  }
}
