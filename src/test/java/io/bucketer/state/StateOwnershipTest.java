package io.bucketer.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.state.StateOwnership.Wipe;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StateOwnershipTest {

  private static final String CLUSTER = "q1Sh-9_ISia_zwGINzRvyQ";
  private static final String INPUT = "iot.readings";
  private static final String CHANGELOG = "bucketer-window-1m-store-changelog";
  private static final String REPARTITION = "bucketer-readings-by-series-repartition";
  private static final Map<String, String> TOPICS =
      Map.of(
          INPUT, "AAAAAAAAAAAAAAAAAAAAAQ",
          CHANGELOG, "AAAAAAAAAAAAAAAAAAAAAg",
          REPARTITION, "AAAAAAAAAAAAAAAAAAAAAw");
  private static final Optional<StateOwner> RECORDED = Optional.of(new StateOwner(CLUSTER, TOPICS));

  @Test
  void shouldKeepStateOfTheSameClusterAndTopics() {
    assertThat(StateOwnership.judge(RECORDED, true, CLUSTER, INPUT, TOPICS)).isEmpty();
  }

  @Test
  void shouldKeepStateWhenTopicsWereAddedSinceTheRecord() {
    // A store added to the topology brings a changelog the record does not know: Kafka Streams
    // fills that store itself, and the rest of the state is still this cluster's.
    final Map<String, String> present = new HashMap<>(TOPICS);
    present.put("bucketer-window-1d-store-changelog", "AAAAAAAAAAAAAAAAAAAABA");

    assertThat(StateOwnership.judge(RECORDED, true, CLUSTER, INPUT, present)).isEmpty();
  }

  @Test
  void shouldWipeStateOfAnotherCluster() {
    final Optional<Wipe> wipe =
        StateOwnership.judge(RECORDED, true, "Zq8Wr2wKQmGOeXkUNiX3Ew", INPUT, TOPICS);

    assertThat(wipe).map(Wipe::cause).contains(StateOwnership.OTHER_CLUSTER);
    assertThat(wipe.orElseThrow().reason()).contains(CLUSTER).contains("Zq8Wr2wKQmGOeXkUNiX3Ew");
  }

  @Test
  void shouldWipeStateWhoseTopicWasCreatedAgainWithANewId() {
    final Map<String, String> present = new HashMap<>(TOPICS);
    present.put(CHANGELOG, "AAAAAAAAAAAAAAAAAAAAZw");

    final Optional<Wipe> wipe = StateOwnership.judge(RECORDED, true, CLUSTER, INPUT, present);

    assertThat(wipe).map(Wipe::cause).contains(StateOwnership.TOPIC_RECREATED);
    assertThat(wipe.orElseThrow().reason()).contains(CHANGELOG).contains("AAAAAAAAAAAAAAAAAAAAZw");
  }

  @Test
  void shouldWipeStateWhoseTopicIsGone() {
    // The application reset tool deletes the internal topics; the local state must go with them.
    final Map<String, String> present = Map.of(INPUT, TOPICS.get(INPUT));

    assertThat(StateOwnership.judge(RECORDED, true, CLUSTER, INPUT, present))
        .map(Wipe::cause)
        .contains(StateOwnership.TOPIC_MISSING);
  }

  @Test
  void shouldWipeStateOfAnotherInputTopic() {
    final Map<String, String> present = new HashMap<>(TOPICS);
    present.put("iot.readings.v2", "AAAAAAAAAAAAAAAAAAAABQ");

    assertThat(StateOwnership.judge(RECORDED, true, CLUSTER, "iot.readings.v2", present))
        .map(Wipe::cause)
        .contains(StateOwnership.OTHER_INPUT_TOPIC);
  }

  @Test
  void shouldWipeStateThatHasNoMarker() {
    assertThat(StateOwnership.judge(Optional.empty(), true, CLUSTER, INPUT, TOPICS))
        .map(Wipe::cause)
        .contains(StateOwnership.NO_MARKER);
  }

  @Test
  void shouldHaveNothingToWipeWithoutState() {
    assertThat(StateOwnership.judge(Optional.empty(), false, CLUSTER, INPUT, TOPICS)).isEmpty();
    assertThat(StateOwnership.judge(RECORDED, false, "Zq8Wr2wKQmGOeXkUNiX3Ew", INPUT, TOPICS))
        .isEmpty();
  }
}
