package io.bucketer.simulate;

import io.bucketer.avro.Reading;
import io.bucketer.config.InputSettings;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.sparkplug.SparkplugDataType;
import io.bucketer.ingest.sparkplug.SparkplugMessages;
import io.bucketer.ingest.sparkplug.SparkplugMessages.EdgeNode;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's readings as a fleet of Sparkplug B edge nodes sends them: each sensor is a device
 * of one of {@code edgeNodes} edge nodes of group {@value #GROUP}, every edge node and device is
 * born (NBIRTH, then DBIRTH) before its first data, and each reading is a DDATA of its one metric,
 * sent by alias. bucketer reads the readings back as {@link #asRead}: sensor id {@code
 * group/edge/device}, no UTC offset (Sparkplug has none). As a {@link MessageEncoder} its records
 * are keyed by edge node with their MQTT topic in a header ({@link #records}; {@link
 * #inputSettings()} reads them). Not thread safe.
 */
public final class SparkplugFleet implements MessageEncoder {

  /** The header that holds each record's MQTT topic. */
  public static final String TOPIC_HEADER = "mqtt_topic";

  /** The Sparkplug group of the fleet's edge nodes. */
  public static final String GROUP = "bucketer";

  /** What every device measures: the simulator's two metrics. */
  private static final List<SparkplugMessages.Metric> METRICS =
      List.of(
          new SparkplugMessages.Metric("temperature", SparkplugDataType.DOUBLE),
          new SparkplugMessages.Metric("humidity", SparkplugDataType.DOUBLE));

  /** ... and with gateway messages, the battery too: a {@link GatewayMessage}'s three values. */
  private static final List<SparkplugMessages.Metric> GATEWAY_METRICS =
      List.of(
          new SparkplugMessages.Metric("temperature", SparkplugDataType.DOUBLE),
          new SparkplugMessages.Metric("humidity", SparkplugDataType.DOUBLE),
          new SparkplugMessages.Metric("battery", SparkplugDataType.FLOAT));

  private final int edgeNodes;
  private final boolean gatewayMessages;
  private final List<SparkplugMessages.Metric> metrics;
  private final Map<String, EdgeNode> nodes = new HashMap<>();
  private final Set<String> bornDevices = new HashSet<>();

  /** Devices that send each reading in a DDATA of its own. */
  public SparkplugFleet(final int edgeNodes) {
    this(edgeNodes, false);
  }

  /**
   * @param gatewayMessages each reading's DDATA carries the three values of its {@link
   *     GatewayMessage} (temperature, humidity, battery), as a gateway that reports all its metrics
   *     at once does
   */
  public SparkplugFleet(final int edgeNodes, final boolean gatewayMessages) {
    if (edgeNodes < 1) {
      throw new IllegalArgumentException("at least one edge node: " + edgeNodes);
    }
    this.edgeNodes = edgeNodes;
    this.gatewayMessages = gatewayMessages;
    this.metrics = gatewayMessages ? GATEWAY_METRICS : METRICS;
  }

  /**
   * The messages that carry {@code reading}: its edge node's NBIRTH and its device's DBIRTH the
   * first time each is seen, then its DDATA. The births carry the reading's value and time.
   */
  public List<Message> messagesOf(final Reading reading) {
    final List<Message> messages = new ArrayList<>(3);
    final String edgeNode = edgeNodeOf(reading.getSensorId());
    final long time = reading.getTimestamp().toEpochMilli();
    final EdgeNode node =
        nodes.computeIfAbsent(
            edgeNode,
            name -> {
              final EdgeNode born = new EdgeNode(GROUP, name, metrics);
              messages.add(born.nbirth(time, new double[metrics.size()]));
              return born;
            });
    if (bornDevices.add(reading.getSensorId())) {
      messages.add(node.dbirth(reading.getSensorId(), time, new double[metrics.size()]));
    }
    final Map<String, Double> values = new LinkedHashMap<>();
    if (gatewayMessages) {
      GatewayMessage.of(reading).readings().forEach(r -> values.put(r.getMetric(), r.getValue()));
    } else {
      values.put(reading.getMetric(), reading.getValue());
    }
    messages.add(node.ddata(reading.getSensorId(), time, values));
    return messages;
  }

  /**
   * The records of {@link #messagesOf}, as a bridge set up the way the README advises writes them:
   * keyed by edge node ({@code group/edge}), so that a node's births and data share a partition and
   * keep their order, with the MQTT topic in the {@value #TOPIC_HEADER} header. Keyed by topic, a
   * node's DATA could overtake its BIRTH on another partition (unknown-alias).
   */
  @Override
  public List<GatewayRecord> records(final Reading reading) {
    final byte[] edgeNode =
        (GROUP + "/" + edgeNodeOf(reading.getSensorId())).getBytes(StandardCharsets.UTF_8);
    return messagesOf(reading).stream()
        .map(
            message ->
                new GatewayRecord(
                    edgeNode,
                    message.payload(),
                    Map.of(TOPIC_HEADER, message.topic().getBytes(StandardCharsets.UTF_8))))
        .toList();
  }

  /** The input settings that read the fleet's records: Sparkplug B, the topic in a header. */
  public static Map<String, String> inputSettings() {
    return Map.of(
        InputSettings.FORMAT,
        InputFormat.SPARKPLUG_B.label(),
        InputSettings.SPARKPLUG_TOPIC_FROM,
        SparkplugTopicSource.HEADER_PREFIX + TOPIC_HEADER);
  }

  /** The readings bucketer reads back from the fleet's messages for {@code reading}. */
  public List<Reading> readingsOf(final Reading reading) {
    return gatewayMessages
        ? GatewayMessage.of(reading).readings().stream().map(this::asRead).toList()
        : List.of(asRead(reading));
  }

  /** The reading as bucketer reads it back from the fleet's messages. */
  public Reading asRead(final Reading reading) {
    return new Reading(
        GROUP + "/" + edgeNodeOf(reading.getSensorId()) + "/" + reading.getSensorId(),
        reading.getTimestamp(),
        reading.getValue(),
        reading.getMetric(),
        null);
  }

  private String edgeNodeOf(final String sensorId) {
    return "edge-" + Math.floorMod(sensorId.hashCode(), edgeNodes);
  }
}
