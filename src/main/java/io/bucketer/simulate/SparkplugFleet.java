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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's readings as a fleet of Sparkplug B edge nodes sends them: each sensor is a device
 * of one of {@code edgeNodes} edge nodes of group {@value #GROUP}, every edge node and device is
 * born (NBIRTH, then DBIRTH) before its first data, and each reading is a DDATA of its one metric,
 * sent by alias. bucketer reads the readings back as {@link #asRead}: sensor id {@code
 * group/edge/device}, no UTC offset (Sparkplug has none). As a {@link MessageEncoder} its records
 * are keyed by their MQTT topic, as Kafka Connect's MQTT sources and HiveMQ's and EMQX's bridges
 * write them ({@link #inputSettings()} reads them). Not thread safe.
 */
public final class SparkplugFleet implements MessageEncoder {

  /** The Sparkplug group of the fleet's edge nodes. */
  public static final String GROUP = "bucketer";

  /** What every device measures: the simulator's two metrics. */
  private static final List<SparkplugMessages.Metric> METRICS =
      List.of(
          new SparkplugMessages.Metric("temperature", SparkplugDataType.DOUBLE),
          new SparkplugMessages.Metric("humidity", SparkplugDataType.DOUBLE));

  private final int edgeNodes;
  private final Map<String, EdgeNode> nodes = new HashMap<>();
  private final Set<String> bornDevices = new HashSet<>();

  public SparkplugFleet(final int edgeNodes) {
    if (edgeNodes < 1) {
      throw new IllegalArgumentException("at least one edge node: " + edgeNodes);
    }
    this.edgeNodes = edgeNodes;
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
              final EdgeNode born = new EdgeNode(GROUP, name, METRICS);
              messages.add(born.nbirth(time, 0, 0));
              return born;
            });
    if (bornDevices.add(reading.getSensorId())) {
      messages.add(node.dbirth(reading.getSensorId(), time, 0, 0));
    }
    messages.add(
        node.ddata(reading.getSensorId(), time, Map.of(reading.getMetric(), reading.getValue())));
    return messages;
  }

  /** The records of {@link #messagesOf}: each keyed by its MQTT topic, as a bridge writes it. */
  @Override
  public List<GatewayRecord> records(final Reading reading) {
    return messagesOf(reading).stream()
        .map(
            message ->
                new GatewayRecord(
                    message.topic().getBytes(StandardCharsets.UTF_8), message.payload(), Map.of()))
        .toList();
  }

  /** The input settings that read the fleet's records: Sparkplug B, the topic in the key. */
  public static Map<String, String> inputSettings() {
    return Map.of(
        InputSettings.FORMAT,
        InputFormat.SPARKPLUG_B.label(),
        InputSettings.SPARKPLUG_TOPIC_FROM,
        SparkplugTopicSource.KEY);
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
