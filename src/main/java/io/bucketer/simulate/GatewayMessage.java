package io.bucketer.simulate;

import io.bucketer.avro.Reading;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * What a multi-value gateway sends: one message per device and round with its temperature, humidity
 * and battery voltage, in a schema of its own ({@code gateway-reading.avsc}: {@code deviceId},
 * {@code ts}, {@code temperature}, {@code humidity}, {@code battery}). The simulator derives one
 * from each generated reading, deterministically, so a test or the demo knows which readings
 * bucketer must find in it ({@link #readings}).
 */
public record GatewayMessage(
    String deviceId, long timestampMillis, double temperature, double humidity, float battery) {

  /** The gateway schema, as the simulator registers it. */
  public static final Schema SCHEMA = loadSchema();

  /** Its fields, by role: what a reading mapping for it names. */
  public static final String DEVICE_ID_FIELD = "deviceId";

  public static final String TIME_FIELD = "ts";
  public static final List<String> VALUE_FIELDS = List.of("temperature", "humidity", "battery");

  /**
   * The message of the round {@code reading} belongs to: its value is the device's temperature or
   * humidity, as its metric says, and the other values follow from it.
   */
  public static GatewayMessage of(final Reading reading) {
    final boolean humidity = "humidity".equals(reading.getMetric());
    final double value = reading.getValue();
    final int device = Math.floorMod(reading.getSensorId().hashCode(), 10);
    return new GatewayMessage(
        reading.getSensorId(),
        reading.getTimestamp().toEpochMilli(),
        humidity ? hundredths(15 + value / 3) : value,
        humidity ? value : hundredths(60 - value),
        // Sixteenths: exact in a float, so its JSON text and its Avro float read back equal.
        3.5f + device / 16f);
  }

  /**
   * The readings bucketer reads from this message when mapped by field name: one per value, the
   * metric being the field's name, the battery's float widened to a double as Avro and JSON readers
   * do.
   */
  public List<Reading> readings() {
    return List.of(
        reading("temperature", temperature),
        reading("humidity", humidity),
        reading("battery", battery));
  }

  /** The message as an Avro record of {@link #SCHEMA}. */
  public GenericRecord toAvro() {
    final GenericRecord record = new GenericData.Record(SCHEMA);
    record.put(DEVICE_ID_FIELD, deviceId);
    record.put(TIME_FIELD, timestampMillis);
    record.put("temperature", temperature);
    record.put("humidity", humidity);
    record.put("battery", battery);
    return record;
  }

  private Reading reading(final String metric, final double value) {
    return Reading.newBuilder()
        .setSensorId(deviceId)
        .setMetric(metric)
        .setTimestamp(Instant.ofEpochMilli(timestampMillis))
        .setValue(value)
        .build();
  }

  private static double hundredths(final double value) {
    return Math.round(value * 100) / 100.0;
  }

  private static Schema loadSchema() {
    try (InputStream in = GatewayMessage.class.getResourceAsStream("gateway-reading.avsc")) {
      if (in == null) {
        throw new IllegalStateException("gateway-reading.avsc is missing from the class path");
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
