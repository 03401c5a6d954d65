package io.bucketer.state;

import java.util.Map;
import java.util.Optional;

/**
 * Whether local state may be kept, decided from its recorded owner and what the cluster holds now;
 * no I/O. State may be kept when it was recorded as derived from this cluster and from topics that
 * still exist with the ids they had, the input topic among them.
 */
public final class StateOwnership {

  /** State and no record of its owner. */
  public static final String NO_MARKER = "no-marker";

  /** The state came from another Kafka cluster. */
  public static final String OTHER_CLUSTER = "other-cluster";

  /** The state came from another input topic than the one configured now. */
  public static final String OTHER_INPUT_TOPIC = "other-input-topic";

  /** A topic the state came from is gone. */
  public static final String TOPIC_MISSING = "topic-missing";

  /** A topic the state came from was deleted and created again: same name, another id. */
  public static final String TOPIC_RECREATED = "topic-recreated";

  /**
   * Why local state must be wiped.
   *
   * @param cause a short tag, one of the constants above (for the metric)
   * @param reason a sentence for the log
   */
  public record Wipe(String cause, String reason) {}

  private StateOwnership() {}

  /**
   * Empty when local state may be kept, else why it must be wiped.
   *
   * @param recorded the owner recorded beside the state, if any
   * @param hasLocalState whether there is state at all (no state: nothing to wipe)
   * @param clusterId the id of the cluster the processor is connected to
   * @param inputTopic the input topic the processor is configured with
   * @param presentTopicIds ids of the topics that exist now: at least those of the recorded topics
   *     and the input topic that exist (a name missing here is a topic that does not exist)
   */
  public static Optional<Wipe> judge(
      final Optional<StateOwner> recorded,
      final boolean hasLocalState,
      final String clusterId,
      final String inputTopic,
      final Map<String, String> presentTopicIds) {
    if (!hasLocalState) {
      return Optional.empty();
    }
    if (recorded.isEmpty()) {
      // Written by a version that kept no record, or by a start that ended before it recorded
      // one: nothing says where the state came from, and the changelogs can rebuild it.
      return Optional.of(
          new Wipe(
              NO_MARKER,
              "the state directory holds state but no record of the Kafka cluster and topics it"
                  + " came from"));
    }
    final StateOwner owner = recorded.get();
    if (!owner.clusterId().equals(clusterId)) {
      return Optional.of(
          new Wipe(
              OTHER_CLUSTER,
              "the state came from Kafka cluster "
                  + owner.clusterId()
                  + ", and this is cluster "
                  + clusterId));
    }
    if (!owner.topicIds().containsKey(inputTopic)) {
      return Optional.of(
          new Wipe(
              OTHER_INPUT_TOPIC,
              "the state came from topics "
                  + owner.topicIds().keySet()
                  + ", and the input topic is now "
                  + inputTopic));
    }
    for (final Map.Entry<String, String> topic : owner.topicIds().entrySet()) {
      final String present = presentTopicIds.get(topic.getKey());
      if (present == null) {
        return Optional.of(
            new Wipe(
                TOPIC_MISSING,
                "the state came from topic "
                    + topic.getKey()
                    + " (id "
                    + topic.getValue()
                    + "), which no longer exists"));
      }
      if (!present.equals(topic.getValue())) {
        return Optional.of(
            new Wipe(
                TOPIC_RECREATED,
                "the state came from topic "
                    + topic.getKey()
                    + " with id "
                    + topic.getValue()
                    + ", and the topic of that name now has id "
                    + present
                    + " (deleted and created again)"));
      }
    }
    return Optional.empty();
  }
}
