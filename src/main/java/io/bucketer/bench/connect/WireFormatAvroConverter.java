package io.bucketer.bench.connect;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaRegistryException;
import io.bucketer.ingest.SchemaRegistryUnavailableException;
import java.util.Date;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.Converter;

/**
 * A Kafka Connect value converter for readings in the Confluent wire format (magic byte 0, 4-byte
 * schema id, Avro binary), so that a stock sink connector can consume bucketer's input topic. It is
 * the equivalent, for readings only, of Confluent's {@code
 * io.confluent.connect.avro.AvroConverter}, which is not published on Maven Central; it decodes
 * with bucketer's own {@link ReadingDecoder} and {@link SchemaRegistryClient}, so both sides of a
 * benchmark read the input identically.
 *
 * <p>Each reading becomes a {@link Struct} in the field order of {@code schemas/reading.avsc}, with
 * {@code timestamp} as Connect's {@link Timestamp} logical type so that a MongoDB sink stores a
 * BSON date. Configuration: {@value #SCHEMA_REGISTRY_URL} (one URL or a comma-separated list), as
 * Confluent's converter names it.
 *
 * <p>Errors follow Connect's conventions, so the worker's {@code errors.*} settings apply: a record
 * that can never be decoded is a {@link DataException}; a registry that cannot be reached, after
 * the client's own retries, a {@link RetriableException}; any other registry answer (a wrong URL,
 * refused credentials) a {@link ConnectException}.
 */
public final class WireFormatAvroConverter implements Converter {

  public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";

  /** The Connect schema of a decoded reading. */
  public static final Schema READING_SCHEMA =
      SchemaBuilder.struct()
          .name(Reading.getClassSchema().getFullName())
          .field("sensor_id", Schema.STRING_SCHEMA)
          .field("timestamp", Timestamp.SCHEMA)
          .field("value", Schema.FLOAT64_SCHEMA)
          .field("metric", Schema.OPTIONAL_STRING_SCHEMA)
          .field("utc_offset_minutes", Schema.OPTIONAL_INT32_SCHEMA)
          .build();

  private static final ConfigDef CONFIG =
      new ConfigDef()
          .define(
              SCHEMA_REGISTRY_URL,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              Importance.HIGH,
              "Schema Registry base URL(s), comma-separated, to look up writer schemas by id.");

  private ReadingDecoder decoder;

  @Override
  public void configure(final Map<String, ?> configs, final boolean isKey) {
    final String urls = (String) CONFIG.parse(configs).get(SCHEMA_REGISTRY_URL);
    decoder = new ReadingDecoder(new SchemaRegistryClient(urls));
  }

  @Override
  public ConfigDef config() {
    return CONFIG;
  }

  /** A null value (a tombstone) stays null, as with Confluent's converter. */
  @Override
  public SchemaAndValue toConnectData(final String topic, final byte[] value) {
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    if (decoder == null) {
      throw new IllegalStateException("configure() was not called");
    }
    try {
      return new SchemaAndValue(READING_SCHEMA, toStruct(decoder.decode(value)));
    } catch (InvalidReadingException e) {
      throw new DataException("not a reading on topic " + topic + ": " + e.getMessage(), e);
    } catch (SchemaRegistryUnavailableException e) {
      throw new RetriableException(e.getMessage(), e);
    } catch (SchemaRegistryException e) {
      throw new ConnectException(e.getMessage(), e);
    }
  }

  /**
   * Not supported: the converter exists to read bucketer's input topic, which only bucketer's
   * producers and simulator write.
   */
  @Override
  public byte[] fromConnectData(final String topic, final Schema schema, final Object value) {
    throw new UnsupportedOperationException(
        "WireFormatAvroConverter only reads readings (for a sink connector); it does not write");
  }

  static Struct toStruct(final Reading reading) {
    return new Struct(READING_SCHEMA)
        .put("sensor_id", reading.getSensorId())
        .put("timestamp", Date.from(reading.getTimestamp()))
        .put("value", reading.getValue())
        .put("metric", reading.getMetric())
        .put("utc_offset_minutes", reading.getUtcOffsetMinutes());
  }
}
