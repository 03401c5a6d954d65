package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.config.HttpSettings;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.testing.Endpoints;
import io.bucketer.testing.RunSettings;
import io.bucketer.testing.SecuredKafka;
import io.bucketer.testing.TestCertificates;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bucketer run} against a Kafka it cannot use as configured, as an operator meets it: a
 * cluster that does not answer is waited for, alive and not ready with one line; a trust store
 * without the broker's CA, or a wrong password, ends the process with exit code 3 and one line, no
 * stack trace, and the password nowhere.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaFailuresIT {

  private static final String BUCKETER = "bucketer";
  private static final Pattern PASSWORD = Pattern.compile("password=\"([^\"]*)\"");

  @TempDir static Path certificates;
  private static SecuredKafka kafka;

  @TempDir Path dir;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  static void startBroker() {
    kafka = SecuredKafka.start(certificates, BUCKETER);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void shouldWaitForAClusterThatDoesNotAnswerAliveAndNotReadySayingSo() throws Exception {
    final List<Integer> ports = LoopbackPorts.free(2);
    final String nobody = LoopbackPorts.HOST + ":" + ports.get(0);
    final Map<String, String> settings = settings(Map.of());
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, nobody);
    settings.put(HttpSettings.PORT, String.valueOf(ports.get(1)));
    final URI ops = URI.create("http://" + LoopbackPorts.HOST + ":" + ports.get(1));

    try (ProcessorProcess processor =
        ProcessorProcess.start(BucketerCli.class, "nobody", settings, dir.resolve("run.log"))) {
      final String expected = "kafka at " + nobody + ": unreachable: no answer within 10 s";
      await("/ready says why")
          .atMost(Duration.ofSeconds(45))
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(() -> get(ops.resolve("/ready")).body().contains(expected));
      final HttpResponse<String> ready = get(ops.resolve("/ready"));
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(get(ops.resolve("/health")).statusCode()).isEqualTo(200);
      assertThat(processor.isAlive()).isTrue();
      assertThat(processor.logTail(200))
          .containsOnlyOnce(expected + ": retrying until it answers")
          .doesNotContain("\tat ");
    }
  }

  @Test
  void shouldEndWithExitCodeThreeNamingTheTrustStoreWhenItLacksTheBrokersCa() throws Exception {
    final Path rogue = TestCertificates.ca("rogue CA").writeBundle(dir.resolve("rogue-ca.pem"));
    final Map<String, String> settings =
        settings(Map.of(KafkaSettings.CLIENT_PREFIX + "ssl.truststore.location", rogue.toString()));

    final String output = endedOnItsOwn("wrong-ca", settings);

    assertThat(output)
        .containsOnlyOnce(
            "kafka at "
                + kafka.bootstrapServers()
                + ": TLS trust: the server's certificate does not chain to the trust store "
                + rogue
                + " (kafka.ssl.truststore.location)")
        .doesNotContain("\tat ")
        .doesNotContain("SslAuthenticationException");
  }

  @Test
  void shouldEndWithExitCodeThreeNamingTheUserAndNeverThePasswordWhenTheLoginFails()
      throws Exception {
    final Map<String, String> settings = settings(Map.of());
    final String jaas = settings.get(KafkaSettings.CLIENT_PREFIX + "sasl.jaas.config");
    final Matcher right = PASSWORD.matcher(jaas);
    assertThat(right.find()).isTrue();
    final String wrong = "not-" + right.group(1);
    settings.put(
        KafkaSettings.CLIENT_PREFIX + "sasl.jaas.config",
        PASSWORD.matcher(jaas).replaceFirst("password=\"" + wrong + "\""));

    final String output = endedOnItsOwn("wrong-password", settings);

    assertThat(output)
        .containsOnlyOnce(
            "kafka at "
                + kafka.bootstrapServers()
                + ": authentication failed: SCRAM-SHA-512 as user '"
                + BUCKETER
                + "'")
        .doesNotContain("\tat ")
        .doesNotContain("SaslAuthenticationException")
        .doesNotContain(wrong)
        .doesNotContain(right.group(1));
  }

  @Test
  void shouldEndWithExitCodeThreeSayingTheBrokerRefusedToGoWithoutAClientCertificate()
      throws Exception {
    try (SecuredKafka mutual =
        SecuredKafka.startRequiringClientCertificates(dir.resolve("mutual"), BUCKETER)) {
      final Map<String, String> settings = settings(mutual, Map.of());
      assertThat(settings.remove(KafkaSettings.CLIENT_PREFIX + "ssl.keystore.location"))
          .isNotNull();
      settings.remove(KafkaSettings.CLIENT_PREFIX + "ssl.keystore.type");

      final String output = endedOnItsOwn("no-certificate", settings);

      assertThat(output)
          .containsOnlyOnce(
              "kafka at "
                  + mutual.bootstrapServers()
                  + ": certificate refused: the server demands a client certificate and refused to"
                  + " go without one (none is configured)")
          .doesNotContain("\tat ");
    }
  }

  /** Runs {@code run} until it ends by itself, expecting exit code 3; returns its output. */
  private String endedOnItsOwn(final String name, final Map<String, String> settings)
      throws Exception {
    final Path log = dir.resolve(name + ".log");
    try (ProcessorProcess processor =
        ProcessorProcess.start(BucketerCli.class, name, settings, log)) {
      assertThat(processor.awaitEndOnItsOwn())
          .as("exit code; output:\n%s", processor.logTail(40))
          .isEqualTo(BucketerCli.FATAL_DEPENDENCY_FAILURE);
    }
    return Files.readString(log);
  }

  /** bucketer as the secured broker's user, JSON input (no registry), MongoDB never reached. */
  private Map<String, String> settings(final Map<String, String> more) {
    return settings(kafka, more);
  }

  private Map<String, String> settings(final SecuredKafka broker, final Map<String, String> more) {
    final Map<String, String> settings =
        RunSettings.of(
            RunSettings.newId(),
            new Endpoints(
                broker.bootstrapServers(), "http://127.0.0.1:1", "mongodb://127.0.0.1:1"));
    settings.putAll(broker.bucketerSettings(BUCKETER));
    settings.put(InputSettings.FORMAT, "json");
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", dir.resolve("state").toString());
    settings.putAll(more);
    return settings;
  }

  private HttpResponse<String> get(final URI uri) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
