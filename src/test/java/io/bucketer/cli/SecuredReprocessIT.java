package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.SecuredKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
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
 * {@code bucketer reprocess} against a SASL_SSL broker with an authorizer, with run's own settings
 * (SCRAM over TLS): without an ACL it says so in one line and exits 3; with two of the processor's
 * ACLs ({@link RequiredAcls}), READ on its group and on its input topic, and no other, as
 * docs/reprocessing.md says, it moves the group's offsets back. No line shows the password.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SecuredReprocessIT {

  private static final String BUCKETER = "bucketer";
  private static final String INPUT = "iot.readings";
  private static final int RECORDS = 6;
  private static final ResourcePattern GROUP =
      new ResourcePattern(ResourceType.GROUP, BUCKETER, PatternType.LITERAL);
  private static final ResourcePattern INPUT_TOPIC =
      new ResourcePattern(ResourceType.TOPIC, INPUT, PatternType.LITERAL);

  @TempDir static Path certificates;
  private static SecuredKafka kafka;
  private static Instant from;

  @BeforeAll
  static void start() throws Exception {
    kafka = SecuredKafka.start(certificates, BUCKETER);
    kafka
        .admin()
        .createTopics(List.of(new NewTopic(INPUT, 2, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    // Records take the producer's clock as their timestamps: each one is at or after this.
    from = Instant.now().minusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
    try (KafkaProducer<byte[], byte[]> admin =
        new KafkaProducer<>(
            kafka.clientProperties(SecuredKafka.ADMIN),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      for (int i = 0; i < RECORDS; i++) {
        admin
            .send(
                new ProducerRecord<>(
                    INPUT,
                    i % 2,
                    utf8("sensor-" + i),
                    utf8("{\"sensor_id\":\"sensor-" + i + "\",\"timestamp\":0,\"value\":1}")))
            .get(30, TimeUnit.SECONDS);
      }
    }
    // Where a stopped processor would have left its group: every record read.
    kafka
        .admin()
        .alterConsumerGroupOffsets(
            BUCKETER,
            Map.of(
                new TopicPartition(INPUT, 0), new OffsetAndMetadata(RECORDS / 2),
                new TopicPartition(INPUT, 1), new OffsetAndMetadata(RECORDS / 2)))
        .all()
        .get(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  @Test
  void shouldSayAMissingAclInOneLineAndMoveTheOffsetsWithReadOnTheGroupAndTheInputAlone()
      throws Exception {
    final CliRun refused = reprocess("--from", from.toString());
    assertThat(committed()).containsOnly(RECORDS / 2L);
    // Of the processor's ACLs, only those on its group and its input topic: READ on each.
    final List<AclBinding> groupAndInput =
        RequiredAcls.bindings(
                "User:" + BUCKETER,
                RequiredAcls.Names.of(new BucketerConfig(Map.copyOf(settings()))))
            .stream()
            .filter(acl -> acl.pattern().equals(GROUP) || acl.pattern().equals(INPUT_TOPIC))
            .toList();
    assertThat(groupAndInput)
        .extracting(acl -> acl.entry().operation())
        .containsExactlyInAnyOrder(AclOperation.READ, AclOperation.READ);
    kafka.grant(groupAndInput);
    final CliRun dryRun = reprocess("--from", from.toString(), "--dry-run");
    final CliRun moved = reprocess("--from", from.toString());

    assertThat(refused.exitCode()).isEqualTo(CommandLines.FATAL_DEPENDENCY_FAILURE);
    // the processor's own ACL on its group, the first thing reprocess asks about
    assertThat(refused.err())
        .matches(
            "bucketer reprocess: kafka at 127\\.0\\.0\\.1:\\d+: not authorised: READ on group"
                + " 'bucketer' — see docs/security\\.md 'Kafka'\\R");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains(
            String.format(
                "dry run: 2 partitions would move back, %d records would be read again", RECORDS));
    assertThat(moved.exitCode()).as(moved.err()).isZero();
    assertThat(moved.out())
        .contains(
            String.format("done: 2 partitions moved back, %d records will be read again", RECORDS));
    assertThat(committed()).containsOnly(0L);
    final String password = password();
    for (final CliRun cli : List.of(refused, dryRun, moved)) {
      assertThat(cli.out() + cli.err()).doesNotContain(password);
    }
  }

  /** The group's committed offsets on the input topic, as the admin sees them. */
  private static List<Long> committed() throws Exception {
    return kafka
        .admin()
        .listConsumerGroupOffsets(BUCKETER)
        .partitionsToOffsetAndMetadata()
        .get(30, TimeUnit.SECONDS)
        .values()
        .stream()
        .map(OffsetAndMetadata::offset)
        .collect(Collectors.toList());
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
    final Matcher password =
        Pattern.compile("password=\"([^\"]+)\"").matcher(settings().get("kafka.sasl.jaas.config"));
    assertThat(password.find()).isTrue();
    return password.group(1);
  }

  private static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CliRun reprocess(final String... args) {
    final String[] command = new String[args.length + 1];
    command[0] = "reprocess";
    System.arraycopy(args, 0, command, 1, args.length);
    return CliRun.withSettings(settings(), command);
  }
}
