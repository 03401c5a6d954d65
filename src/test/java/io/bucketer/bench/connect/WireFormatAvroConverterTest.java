package io.bucketer.bench.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WireFormatAvroConverterTest {

  private static final String TOPIC = "readings";

  private final InProcessSchemaRegistry registry = InProcessSchemaRegistry.start();
  private final ReadingEncoder encoder =
      new ReadingEncoder(new SchemaRegistryClient(registry.url()), TOPIC);

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void shouldTurnAFramedReadingIntoAStructWithATimestamp() {
    final Instant time = Instant.parse("2025-06-01T09:00:01.250Z");
    final byte[] framed = encoder.encode(new Reading("boiler-7", time, 71.25, "temp", 120));

    final SchemaAndValue converted = converterFor(registry.url()).toConnectData(TOPIC, framed);

    assertThat(converted.schema()).isEqualTo(WireFormatAvroConverter.READING_SCHEMA);
    assertThat(converted.schema().field("timestamp").schema().name())
        .isEqualTo(Timestamp.LOGICAL_NAME);
    final Struct struct = (Struct) converted.value();
    assertThat(struct.getString("sensor_id")).isEqualTo("boiler-7");
    assertThat(struct.get("timestamp")).isEqualTo(Date.from(time));
    assertThat(struct.getFloat64("value")).isEqualTo(71.25);
    assertThat(struct.getString("metric")).isEqualTo("temp");
    assertThat(struct.getInt32("utc_offset_minutes")).isEqualTo(120);
  }

  @Test
  void shouldLeaveTheOptionalFieldsNullWhenTheReadingHasNone() {
    final byte[] framed =
        encoder.encode(new Reading("s1", Instant.parse("2025-06-01T09:00:00Z"), 1.0, null, null));

    final Struct struct =
        (Struct) converterFor(registry.url()).toConnectData(TOPIC, framed).value();

    assertThat(struct.getString("metric")).isNull();
    assertThat(struct.getInt32("utc_offset_minutes")).isNull();
  }

  @Test
  void shouldKeepATombstoneNull() {
    assertThat(converterFor(registry.url()).toConnectData(TOPIC, null))
        .isEqualTo(SchemaAndValue.NULL);
  }

  @Test
  void shouldReportBytesThatAreNotTheWireFormatAsADataError() {
    final WireFormatAvroConverter converter = converterFor(registry.url());

    assertThatThrownBy(() -> converter.toConnectData(TOPIC, "{\"sensor_id\":1}".getBytes()))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("magic byte");
  }

  @Test
  void shouldReportAnUnknownSchemaIdAsADataError() {
    final WireFormatAvroConverter converter = converterFor(registry.url());

    assertThatThrownBy(
            () -> converter.toConnectData(TOPIC, ConfluentWireFormat.frame(42, new byte[1])))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("schema id 42");
  }

  /** A 404 that is not the registry's "schema not found" means the URL is wrong: not the data. */
  @Test
  void shouldReportAWrongRegistryUrlAsAFailureThatIsNeitherDataNorRetriable() {
    final byte[] framed =
        encoder.encode(new Reading("s1", Instant.parse("2025-06-01T09:00:00Z"), 1.0, null, null));
    final WireFormatAvroConverter converter = converterFor(registry.url() + "/not-the-registry");

    assertThatThrownBy(() -> converter.toConnectData(TOPIC, framed))
        .isInstanceOf(ConnectException.class)
        .isNotInstanceOf(DataException.class)
        .isNotInstanceOf(RetriableException.class)
        .hasMessageContaining("404");
  }

  @Test
  void shouldRequireTheRegistryUrl() {
    assertThatThrownBy(() -> new WireFormatAvroConverter().configure(Map.of(), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(WireFormatAvroConverter.SCHEMA_REGISTRY_URL);
  }

  @Test
  void shouldRefuseToWrite() {
    assertThatThrownBy(
            () ->
                converterFor(registry.url())
                    .fromConnectData(TOPIC, WireFormatAvroConverter.READING_SCHEMA, null))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private static WireFormatAvroConverter converterFor(final String registryUrl) {
    final WireFormatAvroConverter converter = new WireFormatAvroConverter();
    converter.configure(Map.of(WireFormatAvroConverter.SCHEMA_REGISTRY_URL, registryUrl), false);
    return converter;
  }
}
