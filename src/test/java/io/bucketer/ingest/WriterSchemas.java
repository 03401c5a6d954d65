package io.bucketer.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Writer schemas other producers might use, and a plain Avro encoder for them. */
final class WriterSchemas {

  private static final String HEAD =
      "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"io.bucketer.avro\",\"fields\":[";

  /** An older producer: no metric, no utc_offset_minutes (the reader fills in its defaults). */
  static final Schema V0_WITHOUT_OPTIONAL_FIELDS =
      parse(
          HEAD
              + "{\"name\":\"sensor_id\",\"type\":\"string\"},"
              + "{\"name\":\"timestamp\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
              + "{\"name\":\"value\",\"type\":\"double\"}]}");

  /** A newer producer: adds a defaulted field the reader does not know, in the middle. */
  static final Schema V2_WITH_FIRMWARE =
      parse(
          HEAD
              + "{\"name\":\"sensor_id\",\"type\":\"string\"},"
              + "{\"name\":\"timestamp\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
              + "{\"name\":\"value\",\"type\":\"double\"},"
              + "{\"name\":\"firmware\",\"type\":\"string\",\"default\":\"unknown\"},"
              + "{\"name\":\"metric\",\"type\":[\"null\",\"string\"],\"default\":null},"
              + "{\"name\":\"utc_offset_minutes\",\"type\":[\"null\",\"int\"],\"default\":null}]}");

  /** A thrifty producer: int value (promoted to double), plain long timestamp. */
  static final Schema INT_VALUE_PLAIN_LONG_TIME =
      parse(
          HEAD
              + "{\"name\":\"sensor_id\",\"type\":\"string\"},"
              + "{\"name\":\"timestamp\",\"type\":\"long\"},"
              + "{\"name\":\"value\",\"type\":\"int\"}]}");

  static final Schema VALUE_AS_STRING =
      parse(
          HEAD
              + "{\"name\":\"sensor_id\",\"type\":\"string\"},"
              + "{\"name\":\"timestamp\",\"type\":\"long\"},"
              + "{\"name\":\"value\",\"type\":\"string\"}]}");

  static final Schema WITHOUT_SENSOR_ID =
      parse(
          HEAD
              + "{\"name\":\"timestamp\",\"type\":\"long\"},"
              + "{\"name\":\"value\",\"type\":\"double\"}]}");

  static final Schema MICROS_TIMESTAMP =
      parse(
          HEAD
              + "{\"name\":\"sensor_id\",\"type\":\"string\"},"
              + "{\"name\":\"timestamp\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
              + "{\"name\":\"value\",\"type\":\"double\"}]}");

  private WriterSchemas() {}

  static GenericRecord record(final Schema schema, final Object... fieldValues) {
    final GenericRecord record = new GenericData.Record(schema);
    for (int i = 0; i < fieldValues.length; i++) {
      record.put(i, fieldValues[i]);
    }
    return record;
  }

  static byte[] body(final GenericRecord record) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static Schema parse(final String json) {
    return new Schema.Parser().parse(json);
  }
}
