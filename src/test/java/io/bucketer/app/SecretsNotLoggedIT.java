package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.EncryptedKeys;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting the processor with secrets in its settings logs none of them, with the Kafka clients'
 * and the MongoDB driver's loggers turned up to INFO so that their configuration dumps are captured
 * too.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecretsNotLoggedIT {

  private static final String MONGO_PASSWORD = "mongo-Pa55-0f9e";
  private static final String TRUSTSTORE_PASSWORD = "truststore-Pa55-7c1d";
  private static final String JAAS_PASSWORD = "jaas-Pa55-42ab";
  private static final String REGISTRY_PASSWORD = "registry-Pa55-9d3e";
  private static final String TLS_KEY_PASSWORD = "tls-key-Pa55-5b7f";
  private static final String PEER_TOKEN = "peer-token-Pa55-c0ffee-0123";
  private static final String REGISTRY_TOKEN = "registry-t0ken-Pa55-e5e5";
  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;
  @TempDir static Path secrets;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldLogNoSecretWhenItStarts() throws Exception {
    final String log =
        assertNoSecretLoggedNorScraped(
            settingsWithSecrets(),
            List.of(
                MONGO_PASSWORD,
                TRUSTSTORE_PASSWORD,
                JAAS_PASSWORD,
                REGISTRY_PASSWORD,
                TLS_KEY_PASSWORD,
                PEER_TOKEN));

    assertThat(log).contains("ssl.truststore.password = [hidden]");
  }

  /**
   * The credentials kept apart from the connection strings: MongoDB's password setting, which the
   * driver's failed SCRAM login then describes, and the registry's bearer token.
   */
  @Test
  void shouldLogNoSecretOfTheCredentialsKeptApartWhenItStarts() throws Exception {
    final URI server = URI.create(infrastructure.mongoUri());
    final Map<String, String> settings = new HashMap<>();
    settings.put(InputSettings.SCHEMA_REGISTRY_BEARER_TOKEN, REGISTRY_TOKEN);
    settings.put(
        MongoSettings.URI,
        "mongodb://"
            + server.getHost()
            + ":"
            + server.getPort()
            + "/?authSource=admin&serverSelectionTimeoutMS=1000");
    settings.put(MongoSettings.USERNAME, "bucketer");
    settings.put(MongoSettings.PASSWORD, MONGO_PASSWORD);
    settings.put(MongoSettings.SINK_WRITE_TIMEOUT, "2s");
    settings.put(KafkaSettings.SERIES_PARTITIONS, "1");

    final String log =
        assertNoSecretLoggedNorScraped(settings, List.of(MONGO_PASSWORD, REGISTRY_TOKEN));

    assertThat(log).contains("authentication failed for user bucketer of admin");
  }

  /** Runs the processor with {@code settings} until the sink has warned; returns the log. */
  private String assertNoSecretLoggedNorScraped(
      final Map<String, String> settings, final List<String> planted) throws Exception {
    final CapturedLog captured =
        CapturedLog.of(Level.INFO, "io.bucketer", "org.apache.kafka", "org.mongodb");
    final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    String scrape = "";
    try {
      // The settings are read, their TLS key decrypted and their files checked, inside the capture.
      final InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 1, settings);
      try (run;
          BucketerApp app = run.start(meters)) {
        // mongo-java-server knows no SCRAM, so the sink's first attempt fails on authentication,
        // which ends the processor with a line about the credential: captured too.
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    app.streamsState().isRunningOrRebalancing()
                        && app.whenFailedFatally().toCompletableFuture().isDone());
        // A refused login is not retried for ever: the processor is down with that one line.
        assertThat(app.isHealthy()).isFalse();
        assertThat(app.notReadyReason())
            .hasValueSatisfying(reason -> assertThat(reason).contains("authentication failed"));
        scrape = meters.scrape();
      }
    } finally {
      captured.close();
    }

    final String log = captured.text();
    // The clients' dumps were captured, so a leak in them would be seen.
    assertThat(log).contains("StreamsConfig values").contains("ConsumerConfig values");
    // /metrics too: what Prometheus scrapes holds the Kafka clients' metrics, tagged by client.
    assertThat(scrape).contains("kafka_consumer_").contains("bucketer_");
    for (final String text : List.of(log, scrape)) {
      for (final String secret : planted) {
        assertThat(text).doesNotContain(secret);
      }
    }
    return log;
  }

  /** Secrets in every setting that holds one: the registry's and MongoDB's, and Kafka's. */
  private static Map<String, String> settingsWithSecrets() {
    final URI server = URI.create(infrastructure.mongoUri());
    final Map<String, String> settings = new HashMap<>();
    settings.put(InputSettings.SCHEMA_REGISTRY_USER_INFO, "reader:" + REGISTRY_PASSWORD);
    settings.put(
        MongoSettings.URI,
        "mongodb://bucketer:"
            + MONGO_PASSWORD
            + "@"
            + server.getHost()
            + ":"
            + server.getPort()
            + "/?authSource=admin&serverSelectionTimeoutMS=1000");
    settings.put(KafkaSettings.SERIES_PARTITIONS, "1");
    // The HTTP listener's secrets: an encrypted key's password, and the token instances share.
    final Issued certificate =
        TestCertificates.issue(
            TestCertificates.ca("test CA"), "bucketer", Purpose.SERVER, "localhost");
    settings.put(
        HttpSettings.TLS_CERT_FILE, certificate.writeChain(secrets.resolve("tls.crt")).toString());
    settings.put(
        HttpSettings.TLS_KEY_FILE,
        EncryptedKeys.write(
                certificate.key(), secrets.resolve("tls.key"), TLS_KEY_PASSWORD.toCharArray())
            .toString());
    settings.put(HttpSettings.TLS_KEY_PASSWORD, TLS_KEY_PASSWORD);
    try {
      settings.put(
          HttpSettings.AUTH_PEER_TOKEN_FILE,
          Files.writeString(secrets.resolve("peer-token"), PEER_TOKEN).toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    settings.put(MongoSettings.SINK_WRITE_TIMEOUT, "2s");
    // Unused on a PLAINTEXT listener, but every Kafka client receives them and dumps its config.
    settings.put(KafkaSettings.CLIENT_PREFIX + "ssl.truststore.password", TRUSTSTORE_PASSWORD);
    settings.put(
        KafkaSettings.CLIENT_PREFIX + "sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
            + " password=\""
            + JAAS_PASSWORD
            + "\";");
    return settings;
  }
}
