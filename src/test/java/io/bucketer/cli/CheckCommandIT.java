package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.testing.LocalInfrastructure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code bucketer check} against a real broker, the registry stand-in and the MongoDB stand-in:
 * every line passes on a healthy setup, and each fault a user can make gives its own line and exit
 * code 1, in bounded time.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CheckCommandIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static LocalInfrastructure infrastructure;

  @BeforeAll
  static void start() throws Exception {
    infrastructure = LocalInfrastructure.start();
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic("iot.readings", 3, (short) 1),
                  new NewTopic("not.compacted", 1, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    new SchemaRegistryClient(infrastructure.schemaRegistryUrl())
        .register("iot.readings-value", Reading.getClassSchema());
  }

  @AfterAll
  static void stop() {
    infrastructure.close();
  }

  @Test
  void shouldPassEveryCheckOfAHealthySetup() {
    final Run run = check();

    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(run.out())
        .contains("✓ settings")
        .containsPattern("✓ Kafka +connection +127\\.0\\.0\\.1:\\d+: cluster \\S+, 1 broker")
        .containsPattern("✓ Kafka +input topic +iot\\.readings: 3 partition")
        .containsPattern("✓ Kafka +buckets topic +iot\\.buckets: missing, run creates it")
        .containsPattern("✓ Schema Registry +input schema +iot\\.readings-value version 1")
        .containsPattern("✓ MongoDB +connection")
        .containsPattern("✓ MongoDB +indexes +missing on buckets_1m, buckets_1h: run creates them")
        .contains("OK: every check passed.")
        .doesNotContain("✗");
  }

  @Test
  void shouldSayWhatEachFaultIsInOneLine() throws Exception {
    final Run missingTopic = check("input.topic=gateways.later");
    final Run notCompacted = check("buckets.topic=not.compacted");
    final Run wrongField = check("input.sensor.id.field=deviceId");

    assertThat(missingTopic.exitCode()).isEqualTo(1);
    assertThat(missingTopic.out())
        .containsPattern("✗ Kafka +input topic +missing topic gateways.later");
    assertThat(notCompacted.out())
        .containsPattern(
            "✗ Kafka +buckets topic +wrong topic configuration: not.compacted has cleanup.policy=delete");
    assertThat(wrongField.out()).containsPattern("✗ Schema Registry +input schema +.*deviceId");
    for (final Run run : List.of(missingTopic, notCompacted, wrongField)) {
      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.out()).contains("1 of ").contains("checks failed");
    }
  }

  @Test
  void shouldSayUnreachableDependenciesWithinTheTimeout() throws Exception {
    final Instant start = Instant.now();
    final Run run =
        check(
            "bootstrap.servers=127.0.0.1:1",
            "mongodb.uri=mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=2000",
            "schema.registry.url=http://127.0.0.1:1");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern(
            "✗ Kafka +connection +kafka at 127.0.0.1:1: unreachable: no answer within 3 s")
        .containsPattern("✗ Schema Registry +input schema +.*127.0.0.1:1")
        .containsPattern("✗ MongoDB +connection +.*127.0.0.1:1");
    assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(60));
  }

  @Test
  void shouldAnswerInJsonForScripts() throws Exception {
    final Run run = check("--json", "input.topic=gateways.later");

    final JsonNode body = JSON.readTree(run.out());
    assertThat(body.get("passed").asBoolean()).isFalse();
    final List<String> failed = new ArrayList<>();
    body.get("checks")
        .forEach(
            check -> {
              if (!check.get("passed").asBoolean()) {
                failed.add(check.get("dependency").asText() + "/" + check.get("check").asText());
              }
            });
    assertThat(failed).containsExactly("Kafka/input topic");
  }

  @Test
  void shouldRefuseInvalidSettingsBeforeAnyConnection() {
    final Run run = check("grace=soon", "http.prot=8080");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("grace").contains("did you mean http.port");
    assertThat(run.out()).doesNotContain("Kafka");
  }

  private record Run(int exitCode, String out, String err) {}

  /**
   * {@code check} with the infrastructure's endpoints, a 3 s timeout, and more settings or flags.
   */
  private static Run check(final String... more) {
    final List<String> args =
        new ArrayList<>(
            List.of(
                "check",
                "--timeout",
                "3",
                "-s",
                "bootstrap.servers=" + infrastructure.bootstrapServers(),
                "-s",
                "schema.registry.url=" + infrastructure.schemaRegistryUrl(),
                "-s",
                "mongodb.uri=" + infrastructure.mongoUri()));
    for (final String setting : more) {
      if (setting.startsWith("--")) {
        args.add(setting);
      } else {
        args.add("-s");
        args.add(setting);
      }
    }
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    final int exitCode = commandLine.execute(args.toArray(new String[0]));
    return new Run(exitCode, out.toString(), err.toString());
  }
}
