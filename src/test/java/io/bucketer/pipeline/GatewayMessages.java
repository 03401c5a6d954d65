package io.bucketer.pipeline;

import io.bucketer.avro.Reading;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Messages of gateways that send several values per message, {@code {deviceId, ts, temperature,
 * humidity, battery}}, as Avro of their own schema and as JSON, and the readings bucketer must make
 * of them, worked out here from the messages alone.
 */
final class GatewayMessages {

  /** The settings that read these messages: no metric field, three value fields. */
  static final Map<String, String> MAPPING =
      Map.of(
          "input.sensor.id.field", "deviceId",
          "input.time.field", "ts",
          "input.metric.field", "",
          "input.utc.offset.field", "",
          "input.value.fields", "temperature,humidity,battery");

  static final Schema SCHEMA =
      SchemaBuilder.record("GatewayReading")
          .namespace("com.example.gateway")
          .fields()
          .requiredString("deviceId")
          .name("ts")
          .type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG)))
          .noDefault()
          .requiredDouble("temperature")
          .optionalFloat("humidity")
          .optionalInt("battery")
          .name("firmware") // not mapped: skipped
          .type()
          .stringType()
          .stringDefault("unknown")
          .endRecord();

  /** One message; humidity and battery may be absent. */
  record Message(String device, Instant time, double temperature, Float humidity, Integer battery) {

    GenericRecord avro() {
      final GenericRecord record = new GenericData.Record(SCHEMA);
      record.put("deviceId", device);
      record.put("ts", time.toEpochMilli());
      record.put("temperature", temperature);
      record.put("humidity", humidity);
      record.put("battery", battery);
      record.put("firmware", "1.4.2");
      return record;
    }

    /**
     * JSON as an MQTT bridge might write it: odd devices give the time as epoch milliseconds, even
     * ones as an ISO-8601 instant at +02:00; an absent humidity is left out, an absent battery is
     * null.
     */
    String json() {
      final String ts =
          Math.floorMod(device.hashCode(), 2) == 0
              ? "\"" + time.atOffset(ZoneOffset.ofHours(2)) + "\""
              : Long.toString(time.toEpochMilli());
      return "{\"deviceId\": \""
          + device
          + "\", \"ts\": "
          + ts
          + ", \"temperature\": "
          + temperature
          + (humidity == null ? "" : ", \"humidity\": " + humidity)
          + ", \"battery\": "
          + battery
          + "}";
    }

    /** One reading per value present, its metric the value's field name. */
    List<Reading> readings() {
      final List<Reading> readings = new ArrayList<>(3);
      readings.add(new Reading(device, time, temperature, "temperature", null));
      if (humidity != null) {
        readings.add(new Reading(device, time, (double) humidity, "humidity", null));
      }
      if (battery != null) {
        readings.add(new Reading(device, time, (double) battery, "battery", null));
      }
      return readings;
    }
  }

  private GatewayMessages() {}

  /**
   * {@code devices} gateways, one message each every {@code every} for {@code duration} from {@code
   * start}; values in quarters, exact in float and double alike, so JSON's text says the same.
   */
  static List<Message> generate(
      final int devices,
      final Instant start,
      final Duration every,
      final Duration duration,
      final long seed) {
    final Random random = new Random(seed);
    final List<Message> messages = new ArrayList<>();
    for (Instant time = start; time.isBefore(start.plus(duration)); time = time.plus(every)) {
      for (int device = 0; device < devices; device++) {
        messages.add(
            new Message(
                String.format("gw-%02d", device),
                time.plusMillis(random.nextInt(1000)),
                15 + random.nextInt(60) * 0.25,
                random.nextInt(5) == 0 ? null : 30 + random.nextInt(160) * 0.25f,
                random.nextInt(7) == 0 ? null : 100 - random.nextInt(20)));
      }
    }
    return messages;
  }

  static List<Reading> readings(final List<Message> messages) {
    return messages.stream().flatMap(m -> m.readings().stream()).toList();
  }
}
