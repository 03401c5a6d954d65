package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.RunSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A buckets topic made beforehand by someone else, without compaction or with a retention shorter
 * than MongoDB's, is said in one line at the start (bucketer still runs: nothing is wrong with its
 * output, only with how long the topic keeps it); a compacted one is not mentioned. One bucketer
 * creates keeps its buckets as long as MongoDB keeps theirs.
 */
@Tag("integration")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TopicConfigurationIT {

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldSayABucketsTopicWithoutCompactionInOneLine() throws Exception {
    final String log =
        startWithBucketsTopic(
            Map.of(), Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE));

    assertThat(log.lines().filter(line -> line.contains("wrong topic configuration")))
        .singleElement()
        .asString()
        .contains("has cleanup.policy=delete, bucketer needs compact")
        .contains("kafka at " + infrastructure.bootstrapServers());
  }

  /**
   * Another client creates the buckets topic, without compaction, between bucketer's listing and
   * its creating the topics (a second instance starting at once, or the broker's listing lagging a
   * creation it has answered): bucketer's creation finds it there, and the topic is checked all the
   * same.
   */
  @Test
  void shouldSayABucketsTopicAnotherClientCreatedMeanwhile() throws Exception {
    final BucketerConfig config = new BucketerConfig(settings(Map.of()));
    createTopics(List.of(new NewTopic(config.inputTopic(), 1, (short) 1)));
    final NotAuthorised notAuthorised =
        NotAuthorised.of(
            config.kafkaProperties(), RequiredAcls.Names.of(config), Duration.ofSeconds(10));
    final TopicSetup setup =
        new TopicSetup(
            config,
            notAuthorised,
            new KafkaFailures(config.kafkaProperties(), Duration.ofSeconds(10), notAuthorised),
            Duration.ofSeconds(10));
    final NewTopic createdMeanwhile =
        new NewTopic(config.bucketsTopic(), 1, (short) 1)
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE));

    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties());
        CapturedLog captured = CapturedLog.of(Level.INFO, "io.bucketer.app")) {
      setup.createMissingTopics(creatingAfterListing(admin, createdMeanwhile));

      assertThat(describe(config.bucketsTopic()).get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
          .isEqualTo(TopicConfig.CLEANUP_POLICY_DELETE);
      assertThat(captured.text().lines().filter(line -> line.contains("wrong topic configuration")))
          .singleElement()
          .asString()
          .contains("has cleanup.policy=delete, bucketer needs compact");
    }
  }

  /** {@code admin}, but each listing of the topics is followed by the creation of {@code topic}. */
  private static Admin creatingAfterListing(final Admin admin, final NewTopic topic) {
    final InvocationHandler listThenCreate =
        (proxy, method, arguments) -> {
          final Object result = method.invoke(admin, arguments);
          if (result instanceof ListTopicsResult listing) {
            listing.names().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
          }
          return result;
        };
    return (Admin)
        Proxy.newProxyInstance(
            Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, listThenCreate);
  }

  @Test
  void shouldSayNothingOfACompactedOne() throws Exception {
    assertThat(
            startWithBucketsTopic(
                Map.of(),
                Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)))
        .doesNotContain("wrong topic configuration");
  }

  /**
   * With every granularity kept for a while, the topic is created to keep its buckets that long
   * (plus the window, grace and lateness horizon, rounded up to an hour) and no longer.
   */
  @Test
  void shouldCreateTheBucketsTopicKeepingBucketsAsLongAsMongoDb() throws Exception {
    final Map<String, String> settings = settings(Map.of("retention", "1m=1d,1h=7d"));
    final BucketerConfig config = new BucketerConfig(settings);
    createTopics(List.of(new NewTopic(config.inputTopic(), 1, (short) 1)));

    try (BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
      final Config created = describe(config.bucketsTopic());
      assertThat(created.get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
          .isEqualTo("compact,delete");
      // 7 d + 1 h + 10 s + 24 h, rounded up to a whole hour: 194 h.
      assertThat(created.get(TopicConfig.RETENTION_MS_CONFIG).value())
          .isEqualTo(Long.toString(Duration.ofHours(194).toMillis()));
      assertThat(created.get(TopicConfig.RETENTION_BYTES_CONFIG).value()).isEqualTo("-1");
    }
  }

  @Test
  void shouldSayABucketsTopicThatDeletesBucketsMongoDbStillKeeps() throws Exception {
    final String log =
        startWithBucketsTopic(
            Map.of("retention", "1m=1d,1h=7d"),
            Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, "compact,delete",
                TopicConfig.RETENTION_MS_CONFIG, "86400000"));

    assertThat(log.lines().filter(line -> line.contains("wrong topic configuration")))
        .singleElement()
        .asString()
        .contains("deletes buckets after retention.ms=86400000 (1d), before MongoDB deletes them")
        .contains("retention.ms=" + Duration.ofHours(194).toMillis());
  }

  private Map<String, String> settings(final Map<String, String> more) {
    final Map<String, String> settings =
        RunSettings.of(RunSettings.newId(), infrastructure.endpoints());
    settings.put("kafka.state.dir", stateDir.toString());
    settings.putAll(more);
    return settings;
  }

  private static void createTopics(final List<NewTopic> topics) throws Exception {
    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }
  }

  private static Config describe(final String topic) throws Exception {
    final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
      return admin
          .describeConfigs(List.of(resource))
          .values()
          .get(resource)
          .get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Makes the run's topics, its buckets topic with {@code topicConfig}, starts it with {@code more}
   * settings, returns its log.
   */
  private String startWithBucketsTopic(
      final Map<String, String> more, final Map<String, String> topicConfig) throws Exception {
    final BucketerConfig config = new BucketerConfig(settings(more));
    createTopics(
        List.of(
            new NewTopic(config.inputTopic(), 1, (short) 1),
            new NewTopic(config.deadLetterTopic(), 1, (short) 1),
            new NewTopic(config.bucketsTopic(), 1, (short) 1).configs(topicConfig)));
    try (CapturedLog captured = CapturedLog.of(Level.INFO, "io.bucketer.app");
        BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
      return captured.text();
    }
  }
}
