package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first step of every reading: its input value decoded into {@link Reading}s, by the decoder of
 * bucketer's own schema and through a mapping (the default one, a gateway's three values per
 * message, and the same as JSON). The writer schemas are already cached, as they are after a
 * topic's first record, so no registry is asked; what is measured is framing, schema resolution and
 * Avro.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ReadingDecodeBenchmark {

  private static final int CURRENT_SCHEMA_ID = 1;
  private static final int OLDER_SCHEMA_ID = 2;

  /** 2025-06-01T10:00:00Z. */
  private static final long TIMESTAMP = 1_748_772_000_000L;

  private static final int GATEWAY_SCHEMA_ID = 3;

  /** A gateway's schema: three values per message, and a field the mapping does not name. */
  private static final Schema GATEWAY =
      SchemaBuilder.record("GatewayReading")
          .fields()
          .requiredString("deviceId")
          .name("ts")
          .type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG)))
          .noDefault()
          .requiredString("firmware")
          .requiredDouble("temperature")
          .optionalDouble("humidity")
          .requiredInt("battery")
          .endRecord();

  private static final ReadingMapping GATEWAY_MAPPING =
      new ReadingMapping(
          FieldPath.parse("deviceId"),
          FieldPath.parse("ts"),
          Optional.empty(),
          Optional.empty(),
          List.of(
              FieldPath.parse("temperature"),
              FieldPath.parse("humidity"),
              FieldPath.parse("battery")));

  private ReadingDecoder decoder;
  private MappedAvroDecoder mappedDefault;
  private MappedAvroDecoder mappedGateway;
  private JsonReadingDecoder jsonGateway;
  private byte[] fromCurrentProducer;
  private byte[] fromOlderProducer;
  private byte[] fromGateway;
  private byte[] fromJsonGateway;

  @Setup
  public void encodeReadingsAndCacheTheirSchemas() throws IOException, InvalidReadingException {
    final MapSchemaLookup schemas =
        new MapSchemaLookup()
            .with(CURRENT_SCHEMA_ID, Reading.getClassSchema())
            .with(OLDER_SCHEMA_ID, WriterSchemas.V0_WITHOUT_OPTIONAL_FIELDS)
            .with(GATEWAY_SCHEMA_ID, GATEWAY);
    decoder = new ReadingDecoder(schemas);
    mappedDefault = new MappedAvroDecoder(schemas, ReadingMapping.DEFAULT);
    mappedGateway = new MappedAvroDecoder(schemas, GATEWAY_MAPPING);
    jsonGateway = new JsonReadingDecoder(GATEWAY_MAPPING);
    // A reading as the simulator's gateways send it: every optional field set.
    fromCurrentProducer =
        framed(
            CURRENT_SCHEMA_ID,
            Reading.getClassSchema(),
            "sensor-0042",
            TIMESTAMP,
            21.37,
            "temperature",
            60);
    fromOlderProducer =
        framed(
            OLDER_SCHEMA_ID,
            WriterSchemas.V0_WITHOUT_OPTIONAL_FIELDS,
            "sensor-0042",
            TIMESTAMP,
            21.37);
    fromGateway =
        framed(GATEWAY_SCHEMA_ID, GATEWAY, "gw-0042", TIMESTAMP, "1.4.2", 21.37, 40.5, 97);
    fromJsonGateway =
        ("{\"deviceId\": \"gw-0042\", \"ts\": \"2025-06-01T10:00:00Z\", \"firmware\":"
                + " \"1.4.2\", \"temperature\": 21.37, \"humidity\": 40.5, \"battery\": 97}")
            .getBytes(StandardCharsets.UTF_8);
    // The first decode of each schema id checks compatibility and caches the resolving reader.
    decoder.decode(fromCurrentProducer);
    decoder.decode(fromOlderProducer);
    mappedDefault.readings(fromCurrentProducer);
    mappedDefault.readings(fromOlderProducer);
    mappedGateway.readings(fromGateway);
  }

  /** The usual case: the producer wrote with the schema the decoder reads. */
  @Benchmark
  public Reading decodeFromCurrentProducer() throws InvalidReadingException {
    return decoder.decode(fromCurrentProducer);
  }

  /** A producer on an older schema: Avro resolves it, filling in the missing fields' defaults. */
  @Benchmark
  public Reading decodeFromOlderProducer() throws InvalidReadingException {
    return decoder.decode(fromOlderProducer);
  }

  /** What the processor runs by default (input.format=avro, the default mapping). */
  @Benchmark
  public List<Reading> mappedDefaultFromCurrentProducer() throws InvalidReadingException {
    return mappedDefault.readings(fromCurrentProducer);
  }

  @Benchmark
  public List<Reading> mappedDefaultFromOlderProducer() throws InvalidReadingException {
    return mappedDefault.readings(fromOlderProducer);
  }

  /** A gateway's message of three values, read through a projection: three readings. */
  @Benchmark
  public List<Reading> mappedGatewayThreeValues() throws InvalidReadingException {
    return mappedGateway.readings(fromGateway);
  }

  /** The same message as JSON (input.format=json). */
  @Benchmark
  public List<Reading> jsonGatewayThreeValues() throws InvalidReadingException {
    return jsonGateway.readings(fromJsonGateway);
  }

  /** Field values are raw Avro values: the timestamp is a long of epoch milliseconds. */
  private static byte[] framed(final int schemaId, final Schema writer, final Object... fields)
      throws IOException {
    return ConfluentWireFormat.frame(
        schemaId, WriterSchemas.body(WriterSchemas.record(writer, fields)));
  }
}
