package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.RunSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Started before the gateways' topic exists, the processor waits for it, alive and not ready with a
 * one-line reason, and starts processing by itself once it is made; told not to wait, it ends.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MissingInputTopicIT {

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
  void shouldWaitForTheInputTopicAndStartOnceItExists() throws Exception {
    final BucketerConfig config = config(Map.of());
    final String topic = config.inputTopic();
    final String log;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, "io.bucketer.app");
        BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
      assertThat(app.notReadyReason())
          .hasValueSatisfying(
              reason ->
                  assertThat(reason)
                      .contains("missing topic " + topic)
                      .contains("waiting for it to exist"));
      assertThat(app.isHealthy()).isTrue();
      assertThat(app.streamsState()).isEqualTo(KafkaStreams.State.CREATED);

      try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
        admin
            .createTopics(List.of(new NewTopic(topic, 2, (short) 1)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }

      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> app.streamsState() == KafkaStreams.State.RUNNING);
      await().atMost(Duration.ofSeconds(30)).until(() -> app.notReadyReason().isEmpty());
      log = captured.text();
    }
    // One line when the wait began (it lasted less than a minute), one when it ended.
    assertThat(log.lines().filter(line -> line.contains("waiting for it to exist"))).hasSize(1);
    assertThat(log).contains("topic " + topic + " exists now: processing starts");
  }

  @Test
  void shouldEndWhenToldNotToWait() throws Exception {
    final BucketerConfig config = config(Map.of(InputSettings.TOPIC_MISSING, "fail"));

    try (BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry())) {
      assertThat(app.whenFailedFatally().toCompletableFuture().get(10, TimeUnit.SECONDS))
          .contains("missing topic " + config.inputTopic())
          .contains("input.topic.missing=fail");
      assertThat(app.isHealthy()).isFalse();
      assertThat(app.notReadyReason())
          .hasValueSatisfying(r -> assertThat(r).contains("missing topic"));
    }
  }

  private BucketerConfig config(final Map<String, String> more) {
    final Map<String, String> settings =
        RunSettings.of(RunSettings.newId(), infrastructure.endpoints());
    settings.put("kafka.state.dir", stateDir.toString());
    settings.putAll(more);
    return new BucketerConfig(settings);
  }
}
