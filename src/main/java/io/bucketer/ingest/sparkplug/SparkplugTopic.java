package io.bucketer.ingest.sparkplug;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.util.Objects;

/**
 * A Sparkplug B MQTT topic, {@code spBv1.0/<group>/<type>/<edge node>[/<device>]}, or a host
 * application's {@code spBv1.0/STATE/<host>}, as an MQTT bridge keeps it in the record's key or a
 * header.
 *
 * @param group the group id; for STATE, empty
 * @param type the message type
 * @param edgeNode the edge node id; for STATE, the host application's id
 * @param device the device id of a device's message, null for the edge node's own
 */
public record SparkplugTopic(
    String group, SparkplugMessageType type, String edgeNode, String device) {

  /** The namespace of Sparkplug B topics, their first level. */
  public static final String NAMESPACE = "spBv1.0";

  public SparkplugTopic {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(edgeNode, "edgeNode");
  }

  /**
   * @throws InvalidReadingException {@code sparkplug-bad-topic}: not of the namespace, an empty
   *     level, a wildcard, too few or too many levels, or a device missing or given where the type
   *     has none; {@code sparkplug-unknown-message-type}: a third level no Sparkplug B type has
   */
  public static SparkplugTopic parse(final String topic) throws InvalidReadingException {
    // MQTT topics are split on '/', nothing else: String.split would drop trailing empty levels.
    final String[] levels = topic.split("/", -1);
    if (!NAMESPACE.equals(levels[0])) {
      throw badTopic(topic, "its first level is not " + NAMESPACE);
    }
    for (final String level : levels) {
      if (level.isEmpty() || level.contains("+") || level.contains("#")) {
        throw badTopic(topic, "it has an empty or wildcard level");
      }
    }
    if (levels.length == 3 && "STATE".equals(levels[1])) {
      return new SparkplugTopic("", SparkplugMessageType.STATE, levels[2], null);
    }
    if (levels.length < 4 || levels.length > 5) {
      throw badTopic(
          topic, "it has " + levels.length + " levels, not spBv1.0/group/type/edge[/device]");
    }
    final SparkplugMessageType type = typeOf(topic, levels[2]);
    final boolean hasDevice = levels.length == 5;
    if (type == SparkplugMessageType.STATE || hasDevice != type.isOfDevice()) {
      throw badTopic(
          topic,
          type + (type.isOfDevice() ? " names a device" : " names no device") + " in its topic");
    }
    return new SparkplugTopic(levels[1], type, levels[3], hasDevice ? levels[4] : null);
  }

  private static SparkplugMessageType typeOf(final String topic, final String level)
      throws InvalidReadingException {
    try {
      return SparkplugMessageType.valueOf(level);
    } catch (IllegalArgumentException e) {
      throw new InvalidReadingException(
          Reason.SPARKPLUG_UNKNOWN_MESSAGE_TYPE,
          "topic " + topic + ": " + level + " is no Sparkplug B message type");
    }
  }

  private static InvalidReadingException badTopic(final String topic, final String why) {
    return new InvalidReadingException(
        Reason.SPARKPLUG_BAD_TOPIC, "topic " + topic + " is no Sparkplug B topic: " + why);
  }

  /** {@code group/edge}: the edge node, whose births and sequence numbers its devices share. */
  public String edgeNodeId() {
    return group + "/" + edgeNode;
  }

  /** {@code group/edge} or {@code group/edge/device}: the sensor id of the readings. */
  public String sensorId() {
    return device == null ? edgeNodeId() : edgeNodeId() + "/" + device;
  }

  /** The topic as MQTT names it. */
  @Override
  public String toString() {
    if (type == SparkplugMessageType.STATE) {
      return NAMESPACE + "/STATE/" + edgeNode;
    }
    return NAMESPACE
        + "/"
        + group
        + "/"
        + type
        + "/"
        + edgeNode
        + (device == null ? "" : "/" + device);
  }
}
