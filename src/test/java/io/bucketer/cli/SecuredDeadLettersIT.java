package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.SecuredKafka;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.DeadLetterTopic;
import io.bucketer.topics.ReplayHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bucketer dead-letters} against a SASL_SSL broker with an authorizer, with run's own
 * settings (SCRAM over TLS): the processor's ACLs let it write the dead-letter topic but not read
 * it, and the command says so in one line and exits 3; with Read on the topic it counts, and with
 * Write on the input topic it replays. No line shows the password.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SecuredDeadLettersIT {

  private static final String BUCKETER = "bucketer";
  private static final String INPUT = "iot.readings";
  private static final String DLQ = "iot.readings.dlq";

  @TempDir static Path certificates;
  private static SecuredKafka kafka;

  @BeforeAll
  static void start() throws Exception {
    kafka = SecuredKafka.start(certificates, BUCKETER);
    kafka
        .admin()
        .createTopics(
            List.of(
                new NewTopic(INPUT, 2, (short) 1),
                new NewTopic("iot.buckets", 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, "compact")),
                new NewTopic(DLQ, 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    kafka.grant(
        RequiredAcls.bindings(
            "User:" + BUCKETER, RequiredAcls.Names.of(new BucketerConfig(Map.copyOf(settings())))));
    try (KafkaProducer<byte[], byte[]> admin =
        new KafkaProducer<>(
            kafka.clientProperties(SecuredKafka.ADMIN),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      final ProducerRecord<byte[], byte[]> letter =
          new ProducerRecord<>(
              DLQ, utf8("gw-1"), utf8("{\"device\":\"gw-1\",\"timestamp\":0,\"value\":1}"));
      DeadLetterHeaders.add(
          letter.headers(), "missing-field", "no sensor_id", INPUT, 1, 41, 1_700_000_000_000L);
      admin.send(letter).get(30, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  @Test
  void shouldSayAMissingAclInOneLineAndCountAndReplayOnceGranted() throws Exception {
    final CliRun refused = cli("summary", "--json");
    kafka.grant(List.of(allow(DLQ, AclOperation.READ)));
    final CliRun counted = cli("summary", "--json");
    final CliRun replayRefused = cli("replay");
    kafka.grant(List.of(allow(INPUT, AclOperation.WRITE)));
    final CliRun replayed = cli("replay");

    assertThat(refused.exitCode()).isEqualTo(CommandLines.FATAL_DEPENDENCY_FAILURE);
    assertThat(refused.err())
        .matches(
            "bucketer: kafka at 127\\.0\\.0\\.1:\\d+: not authorised: READ on topic"
                + " 'iot\\.readings\\.dlq' — see docs/dead-letters\\.md\\R");
    assertThat(counted.exitCode()).as(counted.err()).isZero();
    assertThat(new ObjectMapper().readTree(counted.out()).get("records").asLong()).isEqualTo(1);
    assertThat(replayRefused.exitCode()).isEqualTo(CommandLines.FATAL_DEPENDENCY_FAILURE);
    assertThat(replayRefused.err())
        .contains(": not authorised: WRITE on topic 'iot.readings' — see docs/dead-letters.md")
        .contains("the replay stopped; 0 records were acknowledged");
    assertThat(replayed.exitCode()).as(replayed.err()).isZero();
    assertThat(replayed.out()).contains("done: 1 records replayed to " + INPUT);
    final List<ConsumerRecord<byte[], byte[]>> input =
        DeadLetterTopic.committedRecords(kafka.clientProperties(SecuredKafka.ADMIN), INPUT);
    assertThat(input)
        .singleElement()
        .satisfies(
            record ->
                assertThat(
                        new String(
                            record.headers().lastHeader(ReplayHeaders.OF).value(),
                            StandardCharsets.UTF_8))
                    .isEqualTo(DLQ + "/0/0"));
    System.out.println("DOCS>>" + refused.err() + replayRefused.err() + replayed.out());
    final String password = password();
    for (final CliRun cli : List.of(refused, counted, replayRefused, replayed)) {
      assertThat(cli.out() + cli.err()).doesNotContain(password);
    }
  }

  private static AclBinding allow(final String topic, final AclOperation operation) {
    return new AclBinding(
        new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
        new AccessControlEntry("User:" + BUCKETER, "*", operation, AclPermissionType.ALLOW));
  }

  private static Map<String, String> settings() {
    final Map<String, String> settings = new LinkedHashMap<>(kafka.bucketerSettings(BUCKETER));
    settings.put("input.format", "json");
    // loaded as run loads it, never connected to
    settings.put("mongodb.uri", "mongodb://127.0.0.1:1");
    return settings;
  }

  /** The SCRAM password in the settings' JAAS configuration. */
  private static String password() {
    final String jaas = settings().get("kafka.sasl.jaas.config");
    final java.util.regex.Matcher password =
        java.util.regex.Pattern.compile("password=\"([^\"]+)\"").matcher(jaas);
    assertThat(password.find()).isTrue();
    return password.group(1);
  }

  private static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CliRun cli(final String... args) {
    final List<String> command = new ArrayList<>(List.of("dead-letters"));
    command.addAll(List.of(args));
    return CliRun.withSettings(settings(), command.toArray(new String[0]));
  }
}
