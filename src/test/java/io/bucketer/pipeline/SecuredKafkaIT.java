package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.cli.BucketerCli;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.kafkaaccess.NotAuthorisedException;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.SecuredKafka;
import io.bucketer.topics.DeadLetterTopic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline against a broker secured as production clusters are (SASL_SSL with SCRAM-SHA-512
 * over TLS, {@code StandardAuthorizer}, no ACL but the ones granted), with bucketer's principal
 * given exactly the ACLs the README lists ({@link RequiredAcls}, which a test keeps equal to the
 * README). One broker for the whole class.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecuredKafkaIT {

  private static final String BUCKETER = "bucketer";
  private static final String PRINCIPAL = "User:" + BUCKETER;
  private static final String GATEWAY = "gateway";
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");

  private static final RequiredAcls.Names NAMES_FOR_DISPLAY =
      new RequiredAcls.Names("app", "input", "buckets", "dead-letters");

  private static Path certificates;
  private static SecuredKafka kafka;
  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void startSecuredInfrastructure() throws Exception {
    certificates = Files.createTempDirectory("bucketer-kafka-tls-");
    kafka = SecuredKafka.start(certificates, BUCKETER, GATEWAY);
    infrastructure = LocalInfrastructure.around(kafka);
  }

  @AfterAll
  static void stopSecuredInfrastructure() throws Exception {
    if (infrastructure != null) {
      infrastructure.close();
    }
    Utils.delete(certificates.toFile());
  }

  @Test
  void shouldBucketLateAndBadInputExactlyOnceWithOnlyTheAclsTheReadmeLists() throws Exception {
    final List<Reading> onTime =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                4, HISTORY, Duration.ofSeconds(2), Duration.ofMillis(300), 0.05, 12, 1200, 23));
    final List<Reading> late = new ArrayList<>();
    for (int sensor = 0; sensor < 4; sensor++) {
      final Reading first = onTime.get(sensor);
      late.add(
          Reading.newBuilder(first)
              .setTimestamp(HISTORY.plusSeconds(185).plusMillis(500 + sensor))
              .setValue(100 + sensor)
              .build());
    }
    final List<Reading> all = new ArrayList<>(onTime);
    all.addAll(late);

    try (InProcessRun run = securedRun();
        BucketerApp app = run.start()) {
      run.send(onTime);
      run.awaitReadingsInBuckets(onTime.size(), HOUR);
      run.send(late);
      run.sendValues(List.of("not a reading".getBytes(StandardCharsets.UTF_8)));
      run.awaitReadingsInBuckets(all.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), all, MINUTE, HOUR);
      assertThat(run.deadLetters()).hasSize(1);
      assertThat(kafka.acls())
          .filteredOn(acl -> acl.entry().principal().equals(PRINCIPAL))
          .containsExactlyInAnyOrderElementsOf(
              RequiredAcls.bindings(PRINCIPAL, RequiredAcls.Names.of(run.config())));
    }
  }

  /** Each ACL of the README's list, by its place in it, for the missing-ACL cases. */
  static Stream<Arguments> eachAcl() {
    final List<AclBinding> acls = RequiredAcls.bindings(PRINCIPAL, NAMES_FOR_DISPLAY);
    return IntStream.range(0, acls.size())
        .mapToObj(
            i ->
                Arguments.of(
                    Named.of(
                        acls.get(i).entry().operation()
                            + " on "
                            + acls.get(i).pattern().resourceType()
                            + " "
                            + acls.get(i).pattern().patternType()
                            + " "
                            + acls.get(i).pattern().name(),
                        i)));
  }

  /**
   * Without any one of the README's ACLs the processor stops at once with one line that names the
   * missing operation and resource and points to the README, and is not ready for that reason.
   */
  @ParameterizedTest(name = "without {0}")
  @MethodSource("eachAcl")
  void shouldFailFastNamingTheMissingAclAndTheReadme(final int missing) throws Exception {
    try (InProcessRun run = securedRun(missing)) {
      final AclBinding withheld =
          RequiredAcls.bindings(PRINCIPAL, RequiredAcls.Names.of(run.config())).get(missing);
      final String reason = failureOf(run);
      assertThat(reason)
          .doesNotContain("\n")
          .startsWith("kafka at " + kafka.bootstrapServers() + ": not authorised: ")
          .contains(expectedMissing(withheld))
          .endsWith(" — see docs/security.md 'Kafka'");
    }
  }

  /** The ACLs whose lack the run process meets after it started, and before. */
  static Stream<Arguments> refusedAfterAndBeforeStart() {
    final List<AclBinding> readme = RequiredAcls.bindings(PRINCIPAL, NAMES_FOR_DISPLAY);
    return Stream.of(
        Arguments.of(
            Named.of(
                "transactional-id WRITE, refused once Kafka Streams runs",
                indexOf(readme, ResourceType.TRANSACTIONAL_ID, NAMES_FOR_DISPLAY.internalPrefix())),
            "WRITE on transactional-id prefixed '%s-'"),
        Arguments.of(
            Named.of(
                "dead-letter topic WRITE, refused when its topics are set up",
                indexOf(readme, ResourceType.TOPIC, NAMES_FOR_DISPLAY.deadLetterTopic())),
            "WRITE on topic '%s.dlq'"));
  }

  private static int indexOf(
      final List<AclBinding> acls, final ResourceType type, final String name) {
    return IntStream.range(0, acls.size())
        .filter(i -> acls.get(i).pattern().resourceType() == type)
        .filter(i -> acls.get(i).pattern().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  /**
   * The case the issue found, as an operator meets it: {@code bucketer run} without the
   * transactional-id ACL logged a raw stack trace, shut its stream thread down and stayed up. Now
   * the process ends by itself with exit code 3, having said the one line once, and no stack trace
   * of the refusal; so does a refusal before the processor starts.
   */
  @ParameterizedTest(name = "without {0}")
  @MethodSource("refusedAfterAndBeforeStart")
  void shouldEndTheRunProcessWithOneLineAndExitCodeThree(
      final int missing, final String expected, @TempDir final Path logs) throws Exception {
    try (InProcessRun run = securedRun(missing)) {
      final Map<String, String> settings = new HashMap<>(run.settings());
      settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", logs.resolve("state").toString());
      final Path log = logs.resolve("run.log");
      try (ProcessorProcess processor =
          ProcessorProcess.start(BucketerCli.class, "refused", settings, log)) {
        run.send(
            GeneratedReadings.of(
                new ReadingGenerator.Options(
                    2, HISTORY, Duration.ofSeconds(5), Duration.ZERO, 0, 0, 60, 3)));

        assertThat(processor.awaitEndOnItsOwn()).isEqualTo(BucketerCli.FATAL_DEPENDENCY_FAILURE);
      }
      final String output = Files.readString(log);
      assertThat(output)
          .containsOnlyOnce(
              "kafka at "
                  + kafka.bootstrapServers()
                  + ": not authorised: "
                  + expected.formatted(run.config().applicationId()))
          .containsOnlyOnce(" — see docs/security.md 'Kafka'")
          .doesNotContain("AuthorizationException")
          .doesNotContain("\tat org.apache.kafka");
    }
  }

  /**
   * {@code simulate} reads the same settings as {@code run} (-c, -s, BUCKETER_*): the cluster's
   * address and its kafka.* security settings are written once.
   */
  @Test
  void shouldSimulateGatewaysWithTheKafkaSettingsOfRun(@TempDir final Path dir) throws Exception {
    final String topic = "simulated-" + UUID.randomUUID();
    kafka.broker().createTopic(topic, 1, Map.of());
    kafka.grant(
        List.of(
            new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry(
                    "User:" + GATEWAY, "*", AclOperation.WRITE, AclPermissionType.ALLOW))));
    final Properties settings = new Properties();
    settings.putAll(kafka.bucketerSettings(GATEWAY));
    final Path file = dir.resolve("bucketer.properties");
    try (Writer writer = Files.newBufferedWriter(file)) {
      settings.store(writer, null);
    }

    final int exit =
        BucketerCli.commandLine()
            .execute(
                "simulate",
                "-c",
                file.toString(),
                "--topic",
                topic,
                "--format",
                "json",
                "--count",
                "40",
                "--rate",
                "0");

    assertThat(exit).isZero();
    assertThat(DeadLetterTopic.committedRecords(kafka.clientProperties(SecuredKafka.ADMIN), topic))
        .hasSize(40);
  }

  /**
   * Starts the processor and feeds it readings and a bad record, so that every client and topic is
   * used, and returns the one line it failed with: thrown at start, or its not-ready reason.
   */
  private static String failureOf(final InProcessRun run) throws Exception {
    final BucketerApp app;
    try {
      app = BucketerApp.start(run.config(), new SimpleMeterRegistry());
    } catch (NotAuthorisedException e) {
      return e.getMessage();
    }
    try (app) {
      final CompletableFuture<String> failed = app.whenFailedFatally().toCompletableFuture();
      run.send(
          GeneratedReadings.of(
              new ReadingGenerator.Options(
                  2, HISTORY, Duration.ofSeconds(5), Duration.ZERO, 0, 0, 60, 3)));
      run.sendValues(List.of("not a reading".getBytes(StandardCharsets.UTF_8)));
      final String reason = failed.get(InProcessRun.DEADLINE.toSeconds(), TimeUnit.SECONDS);
      assertThat(app.notReadyReason()).contains(reason);
      assertThat(app.isHealthy()).isFalse();
      return reason;
    }
  }

  /** "READ on topic 'name'", or "CREATE on topic 'prefix" for a prefixed ACL on topics. */
  private static String expectedMissing(final AclBinding acl) {
    final String type =
        acl.pattern().resourceType() == ResourceType.TRANSACTIONAL_ID
            ? "transactional-id"
            : acl.pattern().resourceType().name().toLowerCase();
    final boolean prefixed = acl.pattern().patternType() == PatternType.PREFIXED;
    // a prefixed ACL on topics is missed on one topic of that prefix, named in full
    final String pattern =
        prefixed && acl.pattern().resourceType() != ResourceType.TOPIC ? " prefixed" : "";
    return acl.entry().operation() + " on " + type + pattern + " '" + acl.pattern().name();
  }

  private InProcessRun securedRun() throws Exception {
    return securedRun(-1);
  }

  /**
   * A run that connects as bucketer's principal, after the admin created its input, buckets and
   * dead-letter topics and granted it the README's ACLs, all but the {@code withheld}-th if that is
   * not negative.
   */
  private InProcessRun securedRun(final int withheld) throws Exception {
    final Map<String, String> settings = new HashMap<>(kafka.bucketerSettings(BUCKETER));
    settings.put(WindowSettings.IDLE_TIMEOUT, "2s");
    final InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 2, settings);
    final BucketerConfig config = run.config();
    kafka
        .broker()
        .createTopic(
            config.bucketsTopic(), config.seriesPartitions(), Map.of("cleanup.policy", "compact"));
    kafka.broker().createTopic(config.deadLetterTopic(), config.seriesPartitions(), Map.of());
    final List<AclBinding> acls =
        new ArrayList<>(RequiredAcls.bindings(PRINCIPAL, RequiredAcls.Names.of(config)));
    if (withheld >= 0) {
      acls.remove(withheld);
    }
    kafka.grant(acls);
    return run;
  }
}
