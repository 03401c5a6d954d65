package io.bucketer.ingest.sparkplug;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.sparkplug.SparkplugMetric.ValueField;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a record value as a Sparkplug B payload: protobuf-java's {@link DynamicMessage} over the
 * committed descriptors ({@link SparkplugSchema}), each field by its descriptor. Stateless and safe
 * for concurrent use.
 */
public final class SparkplugPayloads {

  private final SparkplugSchema schema;

  public SparkplugPayloads() {
    this(SparkplugSchema.INSTANCE);
  }

  SparkplugPayloads(final SparkplugSchema schema) {
    this.schema = schema;
  }

  /**
   * @throws InvalidReadingException {@code sparkplug-malformed-payload}: null, or not a protobuf
   *     message of the Payload's shape
   */
  public SparkplugPayload read(final byte[] value) throws InvalidReadingException {
    if (value == null) {
      throw new InvalidReadingException(Reason.SPARKPLUG_MALFORMED_PAYLOAD, "record value is null");
    }
    final DynamicMessage message;
    try {
      message = DynamicMessage.parseFrom(schema.payload, value);
    } catch (InvalidProtocolBufferException e) {
      // protobuf's message says what broke (a truncated message, a bad wire type) and no more.
      throw new InvalidReadingException(
          Reason.SPARKPLUG_MALFORMED_PAYLOAD, "not a Sparkplug B payload: " + e.getMessage(), e);
    }
    final int count = message.getRepeatedFieldCount(schema.payloadMetrics);
    final List<SparkplugMetric> metrics = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      metrics.add(metric((DynamicMessage) message.getRepeatedField(schema.payloadMetrics, i)));
    }
    final boolean hasTimestamp = message.hasField(schema.payloadTimestamp);
    final boolean hasSeq = message.hasField(schema.payloadSeq);
    return new SparkplugPayload(
        hasTimestamp,
        hasTimestamp ? (Long) message.getField(schema.payloadTimestamp) : 0L,
        hasSeq,
        hasSeq ? (Long) message.getField(schema.payloadSeq) : 0L,
        metrics);
  }

  private SparkplugMetric metric(final DynamicMessage metric) {
    final boolean hasAlias = metric.hasField(schema.alias);
    final boolean hasTimestamp = metric.hasField(schema.metricTimestamp);
    final FieldDescriptor set = metric.getOneofFieldDescriptor(schema.value);
    ValueField field = ValueField.NONE;
    long integer = 0;
    double real = 0;
    if (set == null) {
      // No value: is_null, or a DATA metric that breaks its datatype's rule.
    } else if (set.equals(schema.intValue)) {
      field = ValueField.INT;
      integer = Integer.toUnsignedLong((Integer) metric.getField(set));
    } else if (set.equals(schema.longValue)) {
      field = ValueField.LONG;
      integer = (Long) metric.getField(set);
    } else if (set.equals(schema.floatValue)) {
      field = ValueField.FLOAT;
      real = (Float) metric.getField(set);
    } else if (set.equals(schema.doubleValue)) {
      field = ValueField.DOUBLE;
      real = (Double) metric.getField(set);
    } else if (set.equals(schema.booleanValue)) {
      field = ValueField.BOOLEAN;
      integer = (Boolean) metric.getField(set) ? 1 : 0;
    } else if (set.equals(schema.stringValue)) {
      field = ValueField.STRING;
    } else {
      field = ValueField.OTHER;
    }
    return new SparkplugMetric(
        metric.hasField(schema.name) ? (String) metric.getField(schema.name) : null,
        hasAlias,
        hasAlias ? (Long) metric.getField(schema.alias) : 0L,
        hasTimestamp,
        hasTimestamp ? (Long) metric.getField(schema.metricTimestamp) : 0L,
        metric.hasField(schema.datatype) ? (Integer) metric.getField(schema.datatype) : 0,
        metric.hasField(schema.isHistorical) && (Boolean) metric.getField(schema.isHistorical),
        metric.hasField(schema.isNull) && (Boolean) metric.getField(schema.isNull),
        field,
        integer,
        real);
  }
}
