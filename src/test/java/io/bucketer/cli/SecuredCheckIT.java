package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.config.BucketerConfig;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.testing.SecuredKafka;
import io.bucketer.testing.TestCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bucketer check} against a SASL_SSL broker with an authorizer: the README's ACLs pass, one
 * missing is named, and a wrong password or CA is said as such.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SecuredCheckIT {

  private static final String BUCKETER = "bucketer";

  @TempDir static Path certificates;
  private static SecuredKafka kafka;
  private static EmbeddedMongoServer mongo;
  private static List<AclBinding> readme;

  @BeforeAll
  static void start() throws Exception {
    kafka = SecuredKafka.start(certificates, BUCKETER);
    mongo = EmbeddedMongoServer.start();
    kafka
        .admin()
        .createTopics(
            List.of(
                new NewTopic("iot.readings", 2, (short) 1),
                new NewTopic("iot.buckets", 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, "compact")),
                new NewTopic("iot.readings.dlq", 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    readme =
        RequiredAcls.bindings(
            "User:" + BUCKETER, RequiredAcls.Names.of(new BucketerConfig(Map.copyOf(settings()))));
    kafka.grant(readme);
  }

  @AfterAll
  static void stop() {
    kafka.close();
    mongo.close();
  }

  @Test
  void shouldFindTheReadmesAclsAndNameOneThatIsMissing() {
    final String granted = check(settings());
    final AclBinding bucketsWrite =
        readme.stream()
            .filter(
                acl ->
                    acl.pattern().resourceType() == ResourceType.TOPIC
                        && acl.pattern().name().equals("iot.buckets")
                        && acl.entry().operation() == AclOperation.WRITE)
            .findFirst()
            .orElseThrow();
    kafka.revoke(List.of(bucketsWrite));
    final String revoked;
    try {
      revoked = check(settings());
    } finally {
      kafka.grant(List.of(bucketsWrite));
    }

    assertThat(granted)
        .containsPattern(
            "✓ Kafka +ACLs +granted on iot\\.readings, iot\\.buckets, iot\\.readings\\.dlq")
        .containsPattern(
            "✓ Kafka +buckets topic +iot\\.buckets: exists; its cleanup.policy is not visible")
        .contains("OK: every check passed.");
    assertThat(revoked)
        .containsPattern(
            "✗ Kafka +ACLs +not authorised: WRITE on topic iot\\.buckets \\(see docs/security.md")
        .contains("1 of ");
  }

  @Test
  void shouldSayAWrongPasswordAndAWrongCaAsSuch() {
    final Map<String, String> wrongPassword = settings();
    wrongPassword.compute(
        "kafka.sasl.jaas.config",
        (key, jaas) -> jaas.replaceAll("password=\"[^\"]*\"", "password=\"wrong\""));
    final Map<String, String> wrongCa = settings();
    wrongCa.put(
        "kafka.ssl.truststore.location",
        TestCertificates.ca("rogue CA").writeBundle(certificates.resolve("rogue.pem")).toString());

    assertThat(check(wrongPassword))
        .containsPattern(
            "✗ Kafka +connection +kafka at 127\\.0\\.0\\.1:\\d+: authentication failed:"
                + " SCRAM-SHA-512 as user 'bucketer'")
        .doesNotContain("wrong\"");
    assertThat(check(wrongCa))
        .containsPattern(
            "✗ Kafka +connection +kafka at 127\\.0\\.0\\.1:\\d+: TLS trust: the server's"
                + " certificate does not chain to the trust store \\S*rogue\\.pem");
  }

  private static Map<String, String> settings() {
    final Map<String, String> settings = new LinkedHashMap<>(kafka.bucketerSettings(BUCKETER));
    settings.put("input.format", "json");
    settings.put("mongodb.uri", mongo.connectionString());
    return settings;
  }

  private static String check(final Map<String, String> settings) {
    final List<String> args = new ArrayList<>(List.of("check", "--timeout", "5"));
    settings.forEach(
        (key, value) -> {
          args.add("-s");
          args.add(key + "=" + value);
        });
    final StringWriter out = new StringWriter();
    final CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(out, true));
    commandLine.execute(args.toArray(new String[0]));
    return out.toString();
  }
}
