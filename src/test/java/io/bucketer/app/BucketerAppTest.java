package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.recovery.StallRecovery;
import io.bucketer.sink.SinkConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Kafka settings BucketerApp derives from bucketer's, as the Kafka clients receive them, and
 * what it does when a stream thread fails.
 */
class BucketerAppTest {

  private static final KafkaFailures KAFKA_FAILURES =
      new KafkaFailures(
          Map.of("bootstrap.servers", "broker-1:9092"),
          Duration.ofSeconds(10),
          new NotAuthorised(
              "broker-1:9092",
              new RequiredAcls.Names("app", "in", "out", "dlq"),
              topics -> Map.of())); // never asked: no failure here is the authorizer's

  private static BucketerConfig config(final Map<String, String> more) {
    final Map<String, String> settings = new HashMap<>();
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, "broker-1:9092");
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, "http://registry:8081");
    settings.put(MongoSettings.URI, "mongodb://mongo:27017");
    settings.putAll(more);
    return new BucketerConfig(settings);
  }

  @Test
  void shouldMakeEachStreamThreadAStaticMemberOfItsOwnWhenAnInstanceIdIsSet() {
    final StreamsConfig streams =
        new StreamsConfig(
            BucketerApp.streamsProperties(
                config(Map.of(KafkaSettings.INSTANCE_ID, "bucketer-2")), null));

    // Kafka Streams appends the thread's index: one static member per stream thread.
    assertThat(streams.getMainConsumerConfigs("bucketer", "client", 1))
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "bucketer-2-1");
    assertThat(streams.getMainConsumerConfigs("bucketer", "client", 2))
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "bucketer-2-2");
    assertThat(streams.getRestoreConsumerConfigs("client"))
        .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
  }

  @Test
  void shouldMakeTheSinkAStaticMemberOfItsGroupWhenAnInstanceIdIsSet() {
    final SinkConfig sink =
        BucketerApp.sinkConfig(config(Map.of(KafkaSettings.INSTANCE_ID, "bucketer-2")));

    assertThat(sink.groupId()).isEqualTo("bucketer-sink");
    assertThat(sink.kafkaProperties())
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "bucketer-2-sink");
  }

  @Test
  void shouldLeaveMembersDynamicWithoutAnInstanceId() {
    final BucketerConfig config = config(Map.of());
    final StreamsConfig streams = new StreamsConfig(BucketerApp.streamsProperties(config, null));

    assertThat(streams.getMainConsumerConfigs("bucketer", "client", 1))
        .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    assertThat(BucketerApp.sinkConfig(config).kafkaProperties())
        .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
  }

  @Test
  void shouldTurnTaskIdlingOffBecauseEveryTaskReadsOnePartition() {
    final StreamsConfig streams =
        new StreamsConfig(BucketerApp.streamsProperties(config(Map.of()), null));

    assertThat(streams.getLong(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG))
        .isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
  }

  @Test
  void shouldEnableTheProcessingExceptionHandlerForGlobalStateAsKafkaStreamsRecommends() {
    final StreamsConfig streams =
        new StreamsConfig(BucketerApp.streamsProperties(config(Map.of()), null));

    assertThat(streams.getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG))
        .as("unset, Kafka Streams warns at every start")
        .isTrue();
  }

  @Test
  void shouldCompressWhatItProducesWithLz4UnlessTheUserSaysOtherwise() {
    final StreamsConfig defaults =
        new StreamsConfig(BucketerApp.streamsProperties(config(Map.of()), null));
    final StreamsConfig zstd =
        new StreamsConfig(
            BucketerApp.streamsProperties(
                config(Map.of(KafkaSettings.CLIENT_PREFIX + "producer.compression.type", "zstd")),
                null));

    assertThat(defaults.getProducerConfigs("client"))
        .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    assertThat(zstd.getProducerConfigs("client"))
        .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
  }

  @Test
  void shouldGiveTheStreamThreadsA30sTransactionTimeoutUnlessTheUserSaysOtherwise() {
    final StreamsConfig defaults =
        new StreamsConfig(BucketerApp.streamsProperties(config(Map.of()), null));
    final StreamsConfig unprefixed =
        new StreamsConfig(
            BucketerApp.streamsProperties(
                config(Map.of(KafkaSettings.CLIENT_PREFIX + "transaction.timeout.ms", "60000")),
                null));
    final StreamsConfig prefixed =
        new StreamsConfig(
            BucketerApp.streamsProperties(
                config(
                    Map.of(
                        KafkaSettings.CLIENT_PREFIX + "producer.transaction.timeout.ms", "20000")),
                null));

    assertThat(defaults.getProducerConfigs("client"))
        .as("Kafka Streams' exactly-once default would be 10 s")
        .containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 30_000);
    assertThat(BucketerApp.stallTimeouts(defaults))
        .isEqualTo(new StallRecovery.Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(45)));
    assertThat(BucketerApp.stallTimeouts(unprefixed).transaction())
        .isEqualTo(Duration.ofSeconds(60));
    assertThat(BucketerApp.stallTimeouts(prefixed).transaction()).isEqualTo(Duration.ofSeconds(20));
  }

  /**
   * The main consumers' own defaults: new input partitions are assigned at the leader's next
   * metadata refresh (every 10 s, not 5 minutes), and a fetch brings back at most 1 MiB, so that
   * its response dies young (not 50 MiB). Only the main consumers get them, and any {@code kafka.*}
   * form of the setting wins.
   */
  @ParameterizedTest
  @CsvSource({"metadata.max.age.ms, 10000, 60000", "fetch.max.bytes, 1048576, 4194304"})
  void shouldGiveTheMainConsumersTheirOwnDefaultUnlessTheUserSaysOtherwise(
      final String setting, final int bucketersDefault, final String usersValue) {
    final StreamsConfig defaults =
        new StreamsConfig(BucketerApp.streamsProperties(config(Map.of()), null));

    assertThat(defaults.getMainConsumerConfigs("bucketer", "client", 1))
        .containsEntry(setting, bucketersDefault);
    assertThat(defaults.getRestoreConsumerConfigs("client")).doesNotContainKey(setting);
    assertThat(defaults.getProducerConfigs("client")).doesNotContainKey(setting);
    for (final String form : new String[] {"", "consumer.", "main.consumer."}) {
      final StreamsConfig set =
          new StreamsConfig(
              BucketerApp.streamsProperties(
                  config(Map.of(KafkaSettings.CLIENT_PREFIX + form + setting, usersValue)), null));
      assertThat(set.getMainConsumerConfigs("bucketer", "client", 1))
          .as("kafka.%s%s", form, setting)
          .containsEntry(setting, usersValue);
    }
  }

  @Test
  void shouldTellTheStallRecoveryTheSessionTimeoutTheUserSet() {
    final StreamsConfig streams =
        new StreamsConfig(
            BucketerApp.streamsProperties(
                config(Map.of(KafkaSettings.CLIENT_PREFIX + "session.timeout.ms", "10000")), null));

    assertThat(BucketerApp.stallTimeouts(streams).session()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void shouldReplaceAStreamThreadWhoseTransactionTheBrokerAbortedAndCountIt() {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final FatalFailure fatal = new FatalFailure();
    final Throwable aborted =
        new StreamsException(
            "Error encountered trying to commit a transaction",
            new InvalidTxnStateException("invalid state"));

    assertThat(
            BucketerApp.onStreamThreadFailure(
                aborted, new BucketerMetrics(registry), KAFKA_FAILURES, fatal))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(
            registry
                .get(BucketerMetrics.STREAM_THREAD_RESTARTS)
                .tag("cause", BucketerApp.TRANSACTION_ABORTED)
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(fatal.reason()).isEmpty();
  }

  @Test
  void shouldShutTheClientDownOnAStreamThreadFailureItDoesNotKnow() {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    assertThat(
            BucketerApp.onStreamThreadFailure(
                new StreamsException("a bug", new IllegalStateException("unexpected")),
                new BucketerMetrics(registry),
                KAFKA_FAILURES,
                new FatalFailure()))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    assertThat(registry.find(BucketerMetrics.STREAM_THREAD_RESTARTS).counters()).isEmpty();
  }
}
