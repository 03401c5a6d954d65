package io.bucketer.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.bucketer.state.StateOwnership.Wipe;
import io.bucketer.testing.CapturedLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guard's file side. Without state, or with state and no marker, it decides without asking the
 * cluster, so these tests need no broker (its bootstrap address is never dialled).
 */
class LocalStateGuardTest {

  private static final String APPLICATION_ID = "bucketer";

  @TempDir Path stateDir;

  private LocalStateGuard guard() {
    return new LocalStateGuard(
        stateDir, APPLICATION_ID, "iot.readings", Map.of("bootstrap.servers", "127.0.0.1:1"));
  }

  @Test
  void shouldKeepAnEmptyStateDirectory() throws Exception {
    Files.createDirectories(stateDir.resolve(APPLICATION_ID));
    // Kafka Streams' own file, written before any task has state.
    Files.writeString(
        stateDir.resolve(APPLICATION_ID).resolve("kafka-streams-process-metadata"), "");

    assertThat(guard().hasLocalState()).isFalse();
    assertThat(guard().check()).isEmpty();
  }

  @Test
  void shouldWipeTaskStateThatHasNoMarker() throws Exception {
    Files.createDirectories(stateDir.resolve(APPLICATION_ID).resolve("1_5").resolve("rocksdb"));

    assertThat(guard().hasLocalState()).isTrue();
    assertThat(guard().check()).map(Wipe::cause).contains(StateOwnership.NO_MARKER);
  }

  @Test
  void shouldReadTheMarkerItDocuments() throws Exception {
    Files.createDirectories(stateDir.resolve(APPLICATION_ID));
    Files.writeString(
        guard().markerFile(),
        """
        {
          "cluster_id" : "q1Sh-9_ISia_zwGINzRvyQ",
          "topic_ids" : {
            "bucketer-readings-by-series-repartition" : "AAAAAAAAAAAAAAAAAAAAAw",
            "iot.readings" : "AAAAAAAAAAAAAAAAAAAAAQ"
          }
        }
        """);

    assertThat(guard().markerFile())
        .isEqualTo(stateDir.resolve("bucketer").resolve("bucketer-state-owner.json"));
    assertThat(guard().readOwner())
        .contains(
            new StateOwner(
                "q1Sh-9_ISia_zwGINzRvyQ",
                Map.of(
                    "bucketer-readings-by-series-repartition", "AAAAAAAAAAAAAAAAAAAAAw",
                    "iot.readings", "AAAAAAAAAAAAAAAAAAAAAQ")));
  }

  @Test
  void shouldTreatAnUnreadableMarkerAsMissing() throws Exception {
    Files.createDirectories(stateDir.resolve(APPLICATION_ID).resolve("1_0"));
    Files.writeString(guard().markerFile(), "{\"cluster_id\": ");

    assertThat(guard().readOwner()).isEmpty();
    assertThat(guard().check()).map(Wipe::cause).contains(StateOwnership.NO_MARKER);
  }

  /** After a downgrade: a newer build's marker vouches for state this build may not read. */
  @Test
  void shouldWipeStateWhoseMarkerIsOfALaterFormat() throws Exception {
    Files.createDirectories(stateDir.resolve(APPLICATION_ID).resolve("1_0"));
    Files.writeString(
        guard().markerFile(),
        "{\"format\": 2, \"cluster_id\": \"q1Sh-9_ISia_zwGINzRvyQ\", \"topic_ids\": {}}");

    assertThat(guard().readOwner()).isEmpty();
    assertThat(guard().check()).map(Wipe::cause).contains(StateOwnership.NO_MARKER);
  }

  @Test
  void shouldForgetTheOwner() throws Exception {
    Files.createDirectories(stateDir.resolve(APPLICATION_ID));
    Files.writeString(guard().markerFile(), "{}");

    guard().forgetOwner();

    assertThat(guard().markerFile()).doesNotExist();
  }

  @Test
  void shouldLogAFailedRecordingInTheDescribersOneLineWithoutATrace() {
    // an empty bootstrap address fails the admin client at once, as a refused login would later
    final LocalStateGuard unreadable =
        new LocalStateGuard(
            stateDir, APPLICATION_ID, "iot.readings", Map.of("bootstrap.servers", ""));
    final AtomicReference<Throwable> described = new AtomicReference<>();

    try (CapturedLog log = CapturedLog.of(Level.WARN, "io.bucketer.state")) {
      unreadable
          .recordOwnerWhenRunning(
              failure -> {
                described.set(failure);
                return "kafka at nowhere: the describer's line";
              })
          .onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);

      await("the failed recording logged")
          .atMost(Duration.ofSeconds(30))
          .until(() -> log.text().contains("the describer's line"));
      assertThat(log.text())
          .isEqualTo(
              "could not record the owner of the local state; will try again:"
                  + " kafka at nowhere: the describer's line");
    }
    assertThat(described.get()).isInstanceOf(KafkaException.class);
    assertThat(unreadable.markerFile()).doesNotExist();
  }
}
