package io.bucketer.ingest.senml;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import io.bucketer.avro.Reading;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * Writes the readings of one sensor as one SenML pack, as a gateway would send them: the sensor id
 * as base name, the first reading's time as base time and the others' as offsets from it, the
 * metric as the unit (a base unit when all share one). Read with input.senml.metric=unit, such a
 * pack gives back the same readings, less their UTC offsets, which SenML cannot carry. For the
 * simulator and for tests.
 */
public final class SenmlPacks {

  private static final JsonFactory JSON = new JsonFactory();
  private static final CBORFactory CBOR = new CBORFactory();

  private SenmlPacks() {}

  /**
   * @param readings one or more readings of one sensor, with finite values
   * @throws IllegalArgumentException no reading, readings of several sensors, a sensor id that is
   *     no SenML name (RFC 8428 section 4.5.1), or a value that is not finite
   */
  public static byte[] pack(final List<Reading> readings, final SenmlEncoding encoding) {
    Objects.requireNonNull(encoding, "encoding");
    final String sensor = sensorOf(readings);
    final String baseUnit = commonMetric(readings);
    final long baseMillis = readings.get(0).getTimestamp().toEpochMilli();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + 24 * readings.size());
    try (JsonGenerator generator =
        encoding == SenmlEncoding.CBOR
            ? CBOR.createGenerator(bytes)
            : JSON.createGenerator(bytes)) {
      final Fields fields = new Fields(generator, encoding);
      // Definite lengths: RFC 8428 section 6 requires them of a CBOR pack.
      generator.writeStartArray(readings, readings.size());
      for (int i = 0; i < readings.size(); i++) {
        final Reading reading = readings.get(i);
        final long offsetMillis = reading.getTimestamp().toEpochMilli() - baseMillis;
        final boolean first = i == 0;
        final boolean ownUnit = baseUnit == null && reading.getMetric() != null;
        final int size =
            (first ? 2 + (baseUnit == null ? 0 : 1) : 0)
                + (ownUnit ? 1 : 0)
                + (offsetMillis == 0 ? 0 : 1)
                + 1;
        generator.writeStartObject(reading, size);
        if (first) {
          fields.text(SenmlLabel.BASE_NAME, sensor);
          fields.number(SenmlLabel.BASE_TIME, baseMillis / 1000d);
          if (baseUnit != null) {
            fields.text(SenmlLabel.BASE_UNIT, baseUnit);
          }
        }
        if (ownUnit) {
          fields.text(SenmlLabel.UNIT, reading.getMetric());
        }
        if (offsetMillis != 0) {
          fields.number(SenmlLabel.TIME, offsetMillis / 1000d);
        }
        fields.number(SenmlLabel.VALUE, reading.getValue());
        generator.writeEndObject();
      }
      generator.writeEndArray();
    } catch (IOException e) {
      // A ByteArrayOutputStream does not fail.
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static String sensorOf(final List<Reading> readings) {
    if (readings.isEmpty()) {
      throw new IllegalArgumentException("a pack holds one or more readings");
    }
    final String sensor = readings.get(0).getSensorId();
    if (sensor.isEmpty() || SenmlResolver.invalidCharacter(sensor) >= 0) {
      throw new IllegalArgumentException(
          "sensor id " + sensor + " is no SenML name (RFC 8428 section 4.5.1)");
    }
    for (final Reading reading : readings) {
      if (!sensor.equals(reading.getSensorId())) {
        throw new IllegalArgumentException(
            "a pack holds one sensor's readings: " + sensor + " and " + reading.getSensorId());
      }
      if (!Double.isFinite(reading.getValue())) {
        throw new IllegalArgumentException(
            "SenML numbers are finite, not " + reading.getValue() + " (sensor " + sensor + ")");
      }
    }
    return sensor;
  }

  /** The metric every reading has; null when they differ or one has none. */
  private static String commonMetric(final List<Reading> readings) {
    final String metric = readings.get(0).getMetric();
    for (final Reading reading : readings) {
      if (metric == null || !metric.equals(reading.getMetric())) {
        return null;
      }
    }
    return metric;
  }

  /** Writes a field by its JSON label or its CBOR integer. */
  private record Fields(JsonGenerator generator, SenmlEncoding encoding) {

    void text(final SenmlLabel label, final String value) throws IOException {
      key(label);
      generator.writeString(value);
    }

    void number(final SenmlLabel label, final double value) throws IOException {
      key(label);
      if (encoding == SenmlEncoding.CBOR) {
        generator.writeNumber(value);
      } else {
        // RFC 8428 section 5: an exponent's "e" must be lower case; Java writes "E".
        generator.writeNumber(Double.toString(value).replace('E', 'e'));
      }
    }

    private void key(final SenmlLabel label) throws IOException {
      if (encoding == SenmlEncoding.CBOR) {
        ((CBORGenerator) generator).writeFieldId(label.cbor());
      } else {
        generator.writeFieldName(label.json());
      }
    }
  }
}
