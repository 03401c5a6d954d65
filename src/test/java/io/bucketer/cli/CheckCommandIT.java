package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.config.MongoSettings;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaText;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import io.bucketer.testing.TlsTerminatingProxy;
import java.net.URI;
import java.nio.file.Path;
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
import org.junit.jupiter.api.io.TempDir;

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
                  new NewTopic("not.compacted", 1, (short) 1),
                  new NewTopic("json.closed", 1, (short) 1),
                  new NewTopic("json.without.value", 1, (short) 1),
                  new NewTopic("short.retention", 1, (short) 1)
                      .configs(
                          Map.of("cleanup.policy", "compact,delete", "retention.ms", "86400000"))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    new SchemaRegistryClient(infrastructure.schemaRegistryUrl())
        .register("iot.readings-value", Reading.getClassSchema());
    registerClosedJsonSchema("json.closed-value", "sensor_id", "timestamp", "value");
    registerClosedJsonSchema("json.without.value-value", "sensor_id", "timestamp", "reading");
  }

  /** A JSON schema that allows {@code fields} only ({@code additionalProperties: false}). */
  private static void registerClosedJsonSchema(final String subject, final String... fields) {
    final StringBuilder properties = new StringBuilder();
    for (final String field : fields) {
      properties
          .append(properties.isEmpty() ? "" : ", ")
          .append('"')
          .append(field)
          .append("\": {}");
    }
    new SchemaRegistryClient(infrastructure.schemaRegistryUrl())
        .register(
            subject,
            SchemaText.of(
                SchemaText.JSON,
                "{\"type\": \"object\", \"additionalProperties\": false, \"properties\": {"
                    + properties
                    + "}}"));
  }

  @AfterAll
  static void stop() {
    infrastructure.close();
  }

  @Test
  void shouldPassEveryCheckOfAHealthySetup() {
    final CliRun run = check();

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
    final CliRun missingTopic = check("input.topic=gateways.later");
    final CliRun notCompacted = check("buckets.topic=not.compacted");
    final CliRun wrongField = check("input.sensor.id.field=deviceId");
    final CliRun shortRetention = check("buckets.topic=short.retention", "retention=1m=1d,1h=7d");

    assertThat(missingTopic.exitCode()).isEqualTo(1);
    assertThat(missingTopic.out())
        .containsPattern("✗ Kafka +input topic +missing topic gateways.later");
    assertThat(notCompacted.out())
        .containsPattern(
            "✗ Kafka +buckets topic +wrong topic configuration: not.compacted has cleanup.policy=delete");
    assertThat(wrongField.out()).containsPattern("✗ Schema Registry +input schema +.*deviceId");
    assertThat(shortRetention.out())
        .containsPattern(
            "✗ Kafka +buckets topic +wrong topic configuration: short.retention deletes buckets"
                + " after retention.ms=86400000 \\(1d\\), before MongoDB deletes them: set"
                + " cleanup.policy=\\[compact,delete\\],retention.ms=698400000");
    for (final CliRun run : List.of(missingTopic, notCompacted, wrongField, shortRetention)) {
      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.out()).contains("1 of ").contains("checks failed");
    }
  }

  @Test
  void shouldSayUnreachableDependenciesWithinTheTimeout() throws Exception {
    final Instant start = Instant.now();
    final CliRun run =
        check(
            "bootstrap.servers=127.0.0.1:1",
            "mongodb.uri=mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=2000",
            "schema.registry.url=http://127.0.0.1:1");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern(
            "✗ Kafka +connection +kafka at 127.0.0.1:1: unreachable: no answer within 3 s")
        .containsPattern("✗ Schema Registry +input schema +.*127.0.0.1:1")
        .containsPattern("✗ MongoDB +connection +.*127.0.0.1:1: unreachable: Connection refused");
    assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(60));
  }

  @Test
  void shouldSayMongoDbIsUnreachableWhileItIsDownAndPassOnceItIsUp() {
    final URI mongo = URI.create(infrastructure.mongoUri());
    try (CuttableTcpProxy proxy = CuttableTcpProxy.start(mongo.getHost(), mongo.getPort())) {
      final String throughProxy =
          "mongodb.uri=mongodb://127.0.0.1:" + proxy.port() + "/?serverSelectionTimeoutMS=2000";
      proxy.cut();

      final CliRun down = check(throughProxy);
      proxy.restore();
      final CliRun up = check(throughProxy);

      assertThat(down.exitCode()).as(down.out()).isEqualTo(1);
      assertThat(down.out())
          .containsPattern(
              "✗ MongoDB +connection +.*MongoDB 127\\.0\\.0\\.1:"
                  + proxy.port()
                  + ": unreachable: the connection was closed before MongoDB answered")
          .contains("1 of ");
      assertThat(up.exitCode()).as(up.out()).isZero();
      assertThat(up.out()).containsPattern("✓ MongoDB +connection").doesNotContain("✗");
    }
  }

  @Test
  void shouldSayWhatIsWrongWithMongoDbsTlsInOneLine(@TempDir final Path folder) {
    final Authority serverCa = TestCertificates.ca("mongodb CA");
    final Authority clientCa = TestCertificates.ca("client CA");
    final Issued server =
        TestCertificates.issue(serverCa, "mongodb", Purpose.SERVER, "127.0.0.1", "localhost");
    final Issued client = TestCertificates.issue(clientCa, "bucketer", Purpose.CLIENT);
    final String rightCa = serverCa.writeBundle(folder.resolve("mongodb-ca.pem")).toString();
    final String wrongCa =
        TestCertificates.ca("some other CA").writeBundle(folder.resolve("other-ca.pem")).toString();
    final String certificate =
        MongoSettings.TLS_CERT_FILE + "=" + client.writeChain(folder.resolve("client.pem"));
    final String key =
        MongoSettings.TLS_KEY_FILE + "=" + client.writeKey(folder.resolve("client-key.pem"));
    try (CuttableTcpProxy tls =
        TlsTerminatingProxy.start(
            server, clientCa, URI.create(infrastructure.mongoUri()).getPort())) {
      final String uri =
          "mongodb.uri=mongodb://127.0.0.1:" + tls.port() + "/?serverSelectionTimeoutMS=2000";

      final CliRun healthy =
          check(uri, MongoSettings.TLS_CA_FILE + "=" + rightCa, certificate, key);
      final CliRun untrusted =
          check(uri, MongoSettings.TLS_CA_FILE + "=" + wrongCa, certificate, key);
      final CliRun noCertificate = check(uri, MongoSettings.TLS_CA_FILE + "=" + rightCa);

      assertThat(healthy.exitCode()).as(healthy.out()).isZero();
      assertThat(healthy.out()).containsPattern("✓ MongoDB +connection");
      final String server127 = "MongoDB 127.0.0.1:" + tls.port();
      assertThat(untrusted.out())
          .contains(
              server127
                  + ": TLS trust: the server's certificate does not chain to the CAs in "
                  + wrongCa);
      assertThat(noCertificate.out())
          .contains(
              server127
                  + ": certificate refused: the server demands a client certificate and refused"
                  + " to go without one (none is configured)");
      for (final CliRun run : List.of(untrusted, noCertificate)) {
        assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
        assertThat(run.out())
            .containsPattern("✗ MongoDB +connection +.*" + "MongoDB 127")
            .contains("1 of ");
      }
    }
  }

  /**
   * input.format=json-schema, validating against the registered schema: the latest schema must be
   * able to give readings.
   */
  @Test
  void shouldCheckAJsonSchemaSubjectAgainstTheMapping() {
    final CliRun closed =
        check(
            "input.format=json-schema",
            "input.json.schema.validate=true",
            "input.topic=json.closed");
    final CliRun withoutValue =
        check(
            "input.format=json-schema",
            "input.json.schema.validate=true",
            "input.topic=json.without.value");

    assertThat(closed.exitCode()).as(closed.out()).isZero();
    assertThat(closed.out())
        .containsPattern("✓ Schema Registry +input schema +json\\.closed-value version 1");
    assertThat(withoutValue.exitCode()).isEqualTo(1);
    assertThat(withoutValue.out()).containsPattern("✗ Schema Registry +input schema +.*value");
  }

  @Test
  void shouldAnswerInJsonForScripts() throws Exception {
    final CliRun run = check("--json", "input.topic=gateways.later");

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
    final CliRun run = check("grace=soon", "http.prot=8080");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("grace").contains("did you mean http.port");
    assertThat(run.out()).doesNotContain("Kafka");
  }

  /**
   * {@code check} with the infrastructure's endpoints, a 3 s timeout, and more settings or flags.
   */
  private static CliRun check(final String... more) {
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
    return CliRun.of(args);
  }
}
