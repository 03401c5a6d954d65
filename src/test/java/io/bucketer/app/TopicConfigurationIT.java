package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.bucketer.config.BucketerConfig;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.RunSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A buckets topic made beforehand by someone else, without compaction, is said in one line at the
 * start (bucketer still runs: nothing is wrong with its output, only with how long the topic keeps
 * it); a compacted one is not mentioned.
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
    final String log = startWithBucketsTopic(TopicConfig.CLEANUP_POLICY_DELETE);

    assertThat(log.lines().filter(line -> line.contains("wrong topic configuration")))
        .singleElement()
        .asString()
        .contains("has cleanup.policy=delete, bucketer needs compact")
        .contains("kafka at " + infrastructure.bootstrapServers());
  }

  @Test
  void shouldSayNothingOfACompactedOne() throws Exception {
    assertThat(startWithBucketsTopic(TopicConfig.CLEANUP_POLICY_COMPACT))
        .doesNotContain("wrong topic configuration");
  }

  /** Makes the run's topics, its buckets topic with {@code policy}, starts it, returns its log. */
  private String startWithBucketsTopic(final String policy) throws Exception {
    final Map<String, String> settings =
        RunSettings.of(RunSettings.newId(), infrastructure.endpoints());
    settings.put("kafka.state.dir", stateDir.toString());
    final BucketerConfig config = new BucketerConfig(settings);
    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(config.inputTopic(), 1, (short) 1),
                  new NewTopic(config.deadLetterTopic(), 1, (short) 1),
                  new NewTopic(config.bucketsTopic(), 1, (short) 1)
                      .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, policy))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    try (CapturedLog captured = CapturedLog.of(Level.INFO, "io.bucketer.app");
        BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
      return captured.text();
    }
  }
}
