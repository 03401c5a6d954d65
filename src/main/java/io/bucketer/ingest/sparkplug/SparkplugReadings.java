package io.bucketer.ingest.sparkplug;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The readings of a DATA message (NDATA, DDATA), read through the BIRTH of its node or device. Each
 * metric of a numeric datatype (Int8 to UInt64, Float, Double; Boolean as 1 and 0 if {@code
 * booleansAsNumbers}) is a reading of sensor {@code group/edge[/device]}, metric the metric's name
 * (resolved through its alias when the message sends the alias alone), at the metric's own
 * timestamp, else the payload's. Historical metrics are readings like any other. Null metrics
 * (is_null), booleans not taken and metrics of other datatypes (strings, datasets, templates,
 * arrays, ...) are skipped and counted. A message whose metric cannot be read is rejected whole, as
 * every record is. Stateless and safe for concurrent use.
 */
public final class SparkplugReadings {

  /** Why a metric of a DATA message gave no reading, though the message was taken. */
  public enum Skipped {
    NULL("null"),
    BOOLEAN("boolean"),
    NOT_NUMERIC("not-numeric");

    private final String tag;

    Skipped(final String tag) {
      this.tag = tag;
    }

    /** The metric tag's value. */
    public String tag() {
      return tag;
    }
  }

  /**
   * A DATA message's readings, and how many of its metrics were skipped, by why.
   *
   * @param readings the readings, in the payload's order; empty when every metric was skipped
   * @param skipped counts of skipped metrics, only the reasons that occurred
   */
  public record Decoded(List<Reading> readings, Map<Skipped, Integer> skipped) {}

  private final boolean booleansAsNumbers;

  public SparkplugReadings(final boolean booleansAsNumbers) {
    this.booleansAsNumbers = booleansAsNumbers;
  }

  /**
   * @param birth the last BIRTH of the message's node (NDATA) or device (DDATA); {@link
   *     SparkplugBirth#NONE} when there was none
   * @throws InvalidReadingException {@code unknown-alias}, {@code sparkplug-unknown-metric}, {@code
   *     sparkplug-malformed-payload} (a metric with neither name nor alias), {@code
   *     sparkplug-value-type-mismatch}, {@code sparkplug-no-timestamp}
   */
  public Decoded of(
      final SparkplugTopic topic, final SparkplugPayload data, final SparkplugBirth birth)
      throws InvalidReadingException {
    final String sensorId = topic.sensorId();
    final List<Reading> readings = new ArrayList<>(data.metrics().size());
    final Map<Skipped, Integer> skipped = new EnumMap<>(Skipped.class);
    for (final SparkplugMetric metric : data.metrics()) {
      final SparkplugBirth.Metric defined = definition(topic, metric, birth);
      final SparkplugDataType type = SparkplugDataType.of(defined.datatype());
      final Skipped skip = skip(metric, type);
      if (skip != null) {
        skipped.merge(skip, 1, Integer::sum);
        continue;
      }
      final double value = type.toDouble(metric);
      readings.add(new Reading(sensorId, time(topic, metric, data), value, defined.name(), null));
    }
    return new Decoded(readings, skipped);
  }

  private Skipped skip(final SparkplugMetric metric, final SparkplugDataType type) {
    if (metric.isNull()) {
      return Skipped.NULL;
    }
    return switch (type.kind()) {
      case BOOLEAN -> booleansAsNumbers ? null : Skipped.BOOLEAN;
      case OTHER -> Skipped.NOT_NUMERIC;
      default -> null;
    };
  }

  /**
   * The birth's definition of the metric: by alias when the message sends one (the alias is what a
   * BIRTH binds), else by name; a metric sent by a name no birth defined may still be read when it
   * carries its own datatype.
   */
  private static SparkplugBirth.Metric definition(
      final SparkplugTopic topic, final SparkplugMetric metric, final SparkplugBirth birth)
      throws InvalidReadingException {
    if (metric.hasAlias()) {
      final SparkplugBirth.Metric defined = birth.byAlias(metric.alias());
      if (defined == null) {
        throw new InvalidReadingException(
            Reason.UNKNOWN_ALIAS,
            topic
                + ": no BIRTH of "
                + topic.sensorId()
                + " defined the alias "
                + Long.toUnsignedString(metric.alias())
                + (metric.name() == null ? "" : " (of metric " + metric.name() + ")"));
      }
      return defined;
    }
    if (metric.name() == null) {
      throw new InvalidReadingException(
          Reason.SPARKPLUG_MALFORMED_PAYLOAD, topic + ": a metric has neither name nor alias");
    }
    final SparkplugBirth.Metric defined = birth.byName(metric.name());
    if (defined != null) {
      return defined;
    }
    if (metric.datatype() != 0) {
      return new SparkplugBirth.Metric(metric.name(), null, metric.datatype());
    }
    throw new InvalidReadingException(
        Reason.SPARKPLUG_UNKNOWN_METRIC,
        topic
            + ": no BIRTH of "
            + topic.sensorId()
            + " defined the metric "
            + metric.name()
            + ", and it has no datatype");
  }

  private static Instant time(
      final SparkplugTopic topic, final SparkplugMetric metric, final SparkplugPayload data)
      throws InvalidReadingException {
    if (metric.hasTimestamp()) {
      return Instant.ofEpochMilli(metric.timestamp());
    }
    if (data.hasTimestamp()) {
      return Instant.ofEpochMilli(data.timestamp());
    }
    throw new InvalidReadingException(
        Reason.SPARKPLUG_NO_TIMESTAMP,
        topic + ": metric " + metric.label() + " has no timestamp, and neither has the payload");
  }
}
