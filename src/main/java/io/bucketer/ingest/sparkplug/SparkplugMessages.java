package io.bucketer.ingest.sparkplug;

import com.google.protobuf.DynamicMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Writes Sparkplug B messages, topic and payload, as an edge node would: for the simulator, the
 * demo, the tests and the benchmarks. {@link #payload()} writes any payload, field by field; an
 * {@link EdgeNode} writes a session's births and data, numbering them as Sparkplug does and sending
 * aliases alone after the births.
 */
public final class SparkplugMessages {

  private SparkplugMessages() {}

  /** A message as an MQTT bridge would hand it to Kafka: its topic and its payload. */
  public record Message(String topic, byte[] payload) {}

  /**
   * A metric as a birth defines it.
   *
   * @param name its name, the readings' metric
   * @param type its datatype, one of the numeric ones or Boolean
   */
  public record Metric(String name, SparkplugDataType type) {
    public Metric {
      Objects.requireNonNull(name, "name");
      if (type == SparkplugDataType.OTHER) {
        throw new IllegalArgumentException("metric " + name + ": a numeric datatype or Boolean");
      }
    }
  }

  /** A payload to write, field by field. */
  public static PayloadWriter payload() {
    return new PayloadWriter();
  }

  /** The fields of one payload; each setter returns the writer. */
  public static final class PayloadWriter {
    private final SparkplugSchema schema = SparkplugSchema.INSTANCE;
    private final DynamicMessage.Builder payload = DynamicMessage.newBuilder(schema.payload);

    private PayloadWriter() {}

    public PayloadWriter timestamp(final long epochMillis) {
      payload.setField(schema.payloadTimestamp, epochMillis);
      return this;
    }

    public PayloadWriter seq(final long seq) {
      payload.setField(schema.payloadSeq, seq);
      return this;
    }

    /** Adds a metric, written by {@code metric}. */
    public PayloadWriter metric(final Consumer<MetricWriter> metric) {
      final MetricWriter writer = new MetricWriter(schema);
      metric.accept(writer);
      payload.addRepeatedField(schema.payloadMetrics, writer.metric.build());
      return this;
    }

    public byte[] toByteArray() {
      return payload.build().toByteArray();
    }
  }

  /** The fields of one metric; each setter returns the writer. */
  public static final class MetricWriter {
    private final SparkplugSchema schema;
    private final DynamicMessage.Builder metric;

    private MetricWriter(final SparkplugSchema schema) {
      this.schema = schema;
      this.metric = DynamicMessage.newBuilder(schema.metric);
    }

    public MetricWriter name(final String name) {
      metric.setField(schema.name, name);
      return this;
    }

    public MetricWriter alias(final long alias) {
      metric.setField(schema.alias, alias);
      return this;
    }

    public MetricWriter timestamp(final long epochMillis) {
      metric.setField(schema.metricTimestamp, epochMillis);
      return this;
    }

    public MetricWriter datatype(final int datatype) {
      metric.setField(schema.datatype, datatype);
      return this;
    }

    public MetricWriter historical() {
      metric.setField(schema.isHistorical, true);
      return this;
    }

    public MetricWriter isNull() {
      metric.setField(schema.isNull, true);
      return this;
    }

    /** int_value, a uint32: signed types as their two's complement. */
    public MetricWriter intValue(final int value) {
      metric.setField(schema.intValue, value);
      return this;
    }

    public MetricWriter longValue(final long value) {
      metric.setField(schema.longValue, value);
      return this;
    }

    public MetricWriter floatValue(final float value) {
      metric.setField(schema.floatValue, value);
      return this;
    }

    public MetricWriter doubleValue(final double value) {
      metric.setField(schema.doubleValue, value);
      return this;
    }

    public MetricWriter booleanValue(final boolean value) {
      metric.setField(schema.booleanValue, value);
      return this;
    }

    public MetricWriter stringValue(final String value) {
      metric.setField(schema.stringValue, value);
      return this;
    }

    /** The value in the field Sparkplug 3.0 gives {@code type}, and the datatype itself. */
    public MetricWriter value(final SparkplugDataType type, final double value) {
      datatype(type.code());
      return switch (type) {
        case INT8, INT16, INT32, UINT8, UINT16 -> intValue((int) (long) value);
        case INT64, UINT32, UINT64 -> longValue((long) value);
        case FLOAT -> floatValue((float) value);
        case DOUBLE -> doubleValue(value);
        case BOOLEAN -> booleanValue(value != 0);
        case OTHER -> throw new IllegalArgumentException("no value of datatype " + type);
      };
    }
  }

  /**
   * One edge node's session: its NBIRTH, its devices' DBIRTHs, and DATA messages that send each
   * metric by its alias alone, numbered 0 to 255 and wrapping as Sparkplug numbers them. Every
   * metric of the node and of its devices has its own alias, as the specification requires. Not
   * thread safe.
   */
  public static final class EdgeNode {
    private final String group;
    private final String edgeNode;
    private final List<Metric> metrics;
    private final Map<String, Integer> deviceAliasBases = new LinkedHashMap<>();
    private long seq;

    /** {@code metrics}: what the node and each of its devices measure. */
    public EdgeNode(final String group, final String edgeNode, final List<Metric> metrics) {
      this.group = group;
      this.edgeNode = edgeNode;
      this.metrics = List.copyOf(metrics);
    }

    /** {@code group/edge}. */
    public String id() {
      return group + "/" + edgeNode;
    }

    /** A new session's NBIRTH: sequence numbers start again at 0. */
    public Message nbirth(final long timestamp, final double... values) {
      seq = 0;
      return new Message(topic(SparkplugMessageType.NBIRTH, null), birth(0, timestamp, values));
    }

    /** A device's DBIRTH, after its node's NBIRTH. */
    public Message dbirth(final String device, final long timestamp, final double... values) {
      deviceAliasBases.computeIfAbsent(device, d -> metrics.size() * (deviceAliasBases.size() + 1));
      return new Message(
          topic(SparkplugMessageType.DBIRTH, device),
          birth(deviceAliasBases.get(device), timestamp, values));
    }

    /** The node's own readings, a value per metric, by alias. */
    public Message ndata(final long timestamp, final double... values) {
      return new Message(topic(SparkplugMessageType.NDATA, null), data(0, timestamp, values));
    }

    /** A device's readings, a value per metric, by alias; after its DBIRTH. */
    public Message ddata(final String device, final long timestamp, final double... values) {
      final Integer base = deviceAliasBases.get(device);
      if (base == null) {
        throw new IllegalStateException("device " + device + " was not born");
      }
      return new Message(topic(SparkplugMessageType.DDATA, device), data(base, timestamp, values));
    }

    /**
     * A device's readings of some of its metrics, by name, each sent by its alias; after its
     * DBIRTH.
     *
     * @throws IllegalArgumentException for a metric the births did not define
     */
    public Message ddata(
        final String device, final long timestamp, final Map<String, Double> values) {
      final Integer base = deviceAliasBases.get(device);
      if (base == null) {
        throw new IllegalStateException("device " + device + " was not born");
      }
      final PayloadWriter payload = payload().timestamp(timestamp).seq(nextSeq());
      values.forEach(
          (name, value) -> {
            final int i = indexOf(name);
            final SparkplugDataType type = metrics.get(i).type();
            payload.metric(m -> data(m, type, value, base + i));
          });
      return new Message(topic(SparkplugMessageType.DDATA, device), payload.toByteArray());
    }

    /** The alias a device's metric was born with, as its DATA sends it. */
    public long aliasOf(final String device, final String metric) {
      final Integer base = deviceAliasBases.get(device);
      if (base == null) {
        throw new IllegalStateException("device " + device + " was not born");
      }
      return base + indexOf(metric);
    }

    private int indexOf(final String name) {
      for (int i = 0; i < metrics.size(); i++) {
        if (metrics.get(i).name().equals(name)) {
          return i;
        }
      }
      throw new IllegalArgumentException("no metric " + name + " was born");
    }

    /** The node's death certificate: no sequence number. */
    public Message ndeath() {
      return new Message(topic(SparkplugMessageType.NDEATH, null), payload().toByteArray());
    }

    private byte[] birth(final int aliasBase, final long timestamp, final double[] values) {
      final PayloadWriter payload = payload().timestamp(timestamp).seq(nextSeq());
      for (int i = 0; i < metrics.size(); i++) {
        final Metric metric = metrics.get(i);
        final long alias = aliasBase + i;
        final double value = valueOf(values, i);
        payload.metric(m -> m.name(metric.name()).alias(alias).value(metric.type(), value));
      }
      return payload.toByteArray();
    }

    private byte[] data(final int aliasBase, final long timestamp, final double[] values) {
      final PayloadWriter payload = payload().timestamp(timestamp).seq(nextSeq());
      for (int i = 0; i < metrics.size(); i++) {
        final SparkplugDataType type = metrics.get(i).type();
        final long alias = aliasBase + i;
        final double value = valueOf(values, i);
        payload.metric(m -> data(m, type, value, alias));
      }
      return payload.toByteArray();
    }

    /** DATA messages send the alias alone: the name and the datatype are the birth's. */
    private static void data(
        final MetricWriter metric,
        final SparkplugDataType type,
        final double value,
        final long alias) {
      metric.value(type, value);
      metric.metric.clearField(metric.schema.datatype);
      metric.alias(alias);
    }

    private double valueOf(final double[] values, final int i) {
      if (values.length != metrics.size()) {
        throw new IllegalArgumentException(
            metrics.size() + " metrics, but " + values.length + " values");
      }
      return values[i];
    }

    private long nextSeq() {
      final long current = seq;
      seq = (seq + 1) % 256;
      return current;
    }

    private String topic(final SparkplugMessageType type, final String device) {
      return SparkplugTopic.NAMESPACE
          + "/"
          + group
          + "/"
          + type
          + "/"
          + edgeNode
          + (device == null ? "" : "/" + device);
    }
  }
}
