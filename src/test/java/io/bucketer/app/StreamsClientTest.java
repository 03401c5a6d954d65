package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart replaces the client with one built for the new timeout, tells who binds to it, and
 * starts it; once closed, no restart starts another. No broker is needed: the clients never
 * connect.
 */
class StreamsClientTest {

  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path stateDir;

  private final List<Duration> builtWith = new ArrayList<>();
  private final List<KafkaStreams> replacedBy = new ArrayList<>();
  private final FatalFailure fatal = new FatalFailure();

  @Test
  void shouldReplaceTheClientWithOneBuiltForTheNewTimeoutAndStartIt() {
    final StreamsClient client = client();
    final KafkaStreams first = client.current();
    client.start();

    assertThat(client.restartWith(Duration.ofSeconds(60))).isTrue();

    assertThat(builtWith).containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(60));
    assertThat(first.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
    assertThat(client.current()).isNotSameAs(first);
    assertThat(replacedBy).containsExactly(client.current());
    assertThat(client.current().state().isRunningOrRebalancing()).isTrue();
    assertThat(client.restarting()).isFalse();
    assertThat(fatal.reason()).isEmpty();
    assertThat(client.close(CloseOptions.timeout(CLOSE_TIMEOUT))).isTrue();
  }

  @Test
  void shouldStartNoClientOnceClosed() {
    final StreamsClient client = client();
    client.start();
    assertThat(client.close(CloseOptions.timeout(CLOSE_TIMEOUT))).isTrue();

    assertThat(client.restartWith(Duration.ofSeconds(60))).isFalse();

    assertThat(builtWith).containsExactly(Duration.ofSeconds(30));
    assertThat(replacedBy).isEmpty();
  }

  private StreamsClient client() {
    return new StreamsClient(
        timeout -> {
          builtWith.add(timeout);
          final StreamsBuilder builder = new StreamsBuilder();
          builder.stream("readings").to("elsewhere");
          return new KafkaStreams(builder.build(), new StreamsConfig(properties(timeout)));
        },
        Duration.ofSeconds(30),
        (old, next) -> replacedBy.add(next),
        CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP,
        CLOSE_TIMEOUT,
        fatal);
  }

  private Properties properties(final Duration transactionTimeout) {
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "streams-client-test");
    // Nothing listens there: the clients retry in the background and never connect.
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis());
    return properties;
  }
}
