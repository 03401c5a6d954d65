package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which fields of an input record make its readings. The sensor id and the time are shared by all
 * readings of a record; each value field present gives one reading. Its metric is the value of the
 * metric field when there is one (then only one value field is allowed: a record holds one metric's
 * value), else the value field's own name, so that a gateway record {@code {deviceId, ts,
 * temperature, humidity}} becomes the series {@code (deviceId, temperature)} and {@code (deviceId,
 * humidity)}. {@link #DEFAULT} reads bucketer's own {@code Reading} as it always was.
 *
 * @param sensorId the sensor's id; a record without it is rejected ({@code missing-field})
 * @param time the reading's event time; a record without it is rejected ({@code missing-field})
 * @param metric the field naming what was measured, or empty: the value fields' names are
 * @param utcOffset the gateway's offset from UTC in minutes, or empty; null where absent
 * @param values the measured values; absent or null ones are skipped; empty with {@code
 *     allNumericValues}
 * @param allNumericValues input.value.fields=*: every numeric top-level field of a record that is
 *     not mapped to another role is a value, its metric the field's name, so that a gateway that
 *     adds a measurement needs no settings change (a new field of a writer schema is a new series)
 * @param sensorIdSource where the sensor id is: at {@code sensorId} in the payload, or in the
 *     record's key or a header (then {@code sensorId} is not read)
 */
public record ReadingMapping(
    FieldPath sensorId,
    FieldPath time,
    Optional<FieldPath> metric,
    Optional<FieldPath> utcOffset,
    List<FieldPath> values,
    boolean allNumericValues,
    SensorIdSource sensorIdSource) {

  /** What input.value.fields holds for {@code allNumericValues}. */
  public static final String ALL_NUMERIC = "*";

  /** bucketer's own {@code Reading} schema (schemas/reading.avsc), field for field. */
  public static final ReadingMapping DEFAULT =
      new ReadingMapping(
          FieldPath.parse("sensor_id"),
          FieldPath.parse("timestamp"),
          Optional.of(FieldPath.parse("metric")),
          Optional.of(FieldPath.parse("utc_offset_minutes")),
          List.of(FieldPath.parse("value")));

  /** Named value fields, the sensor id in the payload. */
  public ReadingMapping(
      final FieldPath sensorId,
      final FieldPath time,
      final Optional<FieldPath> metric,
      final Optional<FieldPath> utcOffset,
      final List<FieldPath> values) {
    this(sensorId, time, metric, utcOffset, values, false, SensorIdSource.PAYLOAD);
  }

  /**
   * @throws IllegalArgumentException no value field; several with a metric field; two value fields
   *     that would give their readings the same metric; every numeric field with a metric field or
   *     with named value fields
   */
  public ReadingMapping {
    Objects.requireNonNull(sensorId, "sensorId");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(utcOffset, "utcOffset");
    Objects.requireNonNull(sensorIdSource, "sensorIdSource");
    values = List.copyOf(values);
    if (allNumericValues) {
      if (!values.isEmpty()) {
        throw new IllegalArgumentException(
            "value fields " + ALL_NUMERIC + " takes every numeric field: name no others");
      }
      if (metric.isPresent()) {
        throw new IllegalArgumentException(
            "with value fields "
                + ALL_NUMERIC
                + " each reading's metric is its field's name, so there can be no metric field ("
                + metric.get()
                + "): set it empty");
      }
    } else if (values.isEmpty()) {
      throw new IllegalArgumentException("at least one value field is needed");
    }
    if (metric.isPresent() && values.size() > 1) {
      throw new IllegalArgumentException(
          "with a metric field ("
              + metric.get()
              + ") a record holds one value, so exactly one value field is allowed, not "
              + values
              + "; for several values per record, set no metric field: each value field's name"
              + " is then its readings' metric");
    }
    final Map<String, FieldPath> byMetric = new HashMap<>();
    for (final FieldPath value : values) {
      final FieldPath same = byMetric.put(value.name(), value);
      if (same != null) {
        throw new IllegalArgumentException(
            "value fields "
                + same
                + " and "
                + value
                + " would both give readings of metric "
                + value.name()
                + ", the same series");
      }
    }
  }

  /** True for the mapping of bucketer's own schema, which has a faster way to be read. */
  public boolean isDefault() {
    return DEFAULT.equals(this);
  }

  /**
   * The readings of one record, one per value present.
   *
   * @param metricValue the metric field's value, if the mapping has one (may be null)
   * @param valuesFound by position in {@link #values()}; null for a value absent or null
   * @throws InvalidReadingException {@code no-values} when no value is present
   */
  List<Reading> readings(
      final String sensorIdValue,
      final Instant timeValue,
      final String metricValue,
      final Integer utcOffsetValue,
      final Double[] valuesFound)
      throws InvalidReadingException {
    return readings(sensorIdValue, timeValue, metricValue, utcOffsetValue, values, valuesFound);
  }

  /**
   * The readings of one record whose value fields were found in it: with {@code allNumericValues},
   * the record's (or its writer schema's) own numeric fields.
   *
   * @param valueFields the value fields, by position in {@code valuesFound}
   */
  List<Reading> readings(
      final String sensorIdValue,
      final Instant timeValue,
      final String metricValue,
      final Integer utcOffsetValue,
      final List<FieldPath> valueFields,
      final Double[] valuesFound)
      throws InvalidReadingException {
    final List<Reading> readings = new ArrayList<>(valuesFound.length);
    for (int i = 0; i < valuesFound.length; i++) {
      if (valuesFound[i] != null) {
        final String readingMetric = metric.isPresent() ? metricValue : valueFields.get(i).name();
        readings.add(
            new Reading(sensorIdValue, timeValue, valuesFound[i], readingMetric, utcOffsetValue));
      }
    }
    if (readings.isEmpty()) {
      throw new InvalidReadingException(
          Reason.NO_VALUES,
          allNumericValues
              ? "the record has no numeric field besides the ones mapped to other roles"
              : "none of the value fields " + values + " has a value");
    }
    return readings;
  }

  /**
   * Whether a top-level field of a record is a value under {@code allNumericValues}: one mapped to
   * another role is not (an integer sensor id or epoch-millis time is no measurement). Public for
   * the decoders of ingest's sub-packages (Protobuf).
   */
  public boolean isOtherRole(final String topLevelName) {
    return (sensorIdSource.inPayload() && sensorId.segments().get(0).equals(topLevelName))
        || time.segments().get(0).equals(topLevelName)
        || utcOffset.map(path -> path.segments().get(0).equals(topLevelName)).orElse(false);
  }
}
