package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SinkKafkaClientsTest {

  private static final String TOPIC = "buckets";
  private static final String DEAD_LETTERS = "dead-letters";

  // Moved from BucketSinkTest, with the consumer's properties.
  @Test
  void shouldOverridePassThroughPropertiesWithTheSinksOwnSettings() {
    final Map<String, Object> passThrough =
        Map.of(
            "bootstrap.servers", "localhost:9092",
            "enable.auto.commit", "true",
            "isolation.level", "read_uncommitted",
            "group.id", "other",
            "acks", "1",
            "enable.idempotence", "false");

    assertThat(
            SinkKafkaClients.consumerProperties(
                SinkConfig.defaults(TOPIC, DEAD_LETTERS, "group-a", passThrough)))
        .containsEntry("bootstrap.servers", "localhost:9092")
        .containsEntry("enable.auto.commit", false)
        .containsEntry("isolation.level", "read_committed")
        .containsEntry("group.id", "group-a")
        .containsEntry("auto.offset.reset", "earliest");
    assertThat(RejectedBucketDeadLetters.producerProperties(passThrough))
        .containsEntry("bootstrap.servers", "localhost:9092")
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", true);
  }

  @Test
  void shouldKeepAnOffsetResetThePassThroughPropertiesSet() {
    assertThat(
            SinkKafkaClients.consumerProperties(
                SinkConfig.defaults(
                    TOPIC, DEAD_LETTERS, "group-a", Map.of("auto.offset.reset", "latest"))))
        .containsEntry("auto.offset.reset", "latest");
  }

  @Test
  void shouldFetchAtMostOneMebibyteUnlessThePassThroughPropertiesSetAnotherBound() {
    assertThat(
            SinkKafkaClients.consumerProperties(
                SinkConfig.defaults(TOPIC, DEAD_LETTERS, "group-a", Map.of())))
        .as("Kafka's default is 50 MiB, a response of every partition's 1 MiB")
        .containsEntry("fetch.max.bytes", 1024 * 1024);
    assertThat(
            SinkKafkaClients.consumerProperties(
                SinkConfig.defaults(
                    TOPIC, DEAD_LETTERS, "group-a", Map.of("fetch.max.bytes", "4194304"))))
        .containsEntry("fetch.max.bytes", "4194304");
  }

  @Test
  void shouldRefuseAWriteAndABackoffThatOutlastTheMaxPollInterval() {
    final SinkConfig config =
        new SinkConfig(
            TOPIC,
            DEAD_LETTERS,
            "group-a",
            Map.of("max.poll.interval.ms", "10000"),
            Duration.ofMillis(500),
            Duration.ofSeconds(8),
            Duration.ofMillis(200),
            Duration.ofSeconds(2));

    assertThatThrownBy(() -> SinkKafkaClients.consumerProperties(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max.poll.interval.ms (10000)");
  }
}
