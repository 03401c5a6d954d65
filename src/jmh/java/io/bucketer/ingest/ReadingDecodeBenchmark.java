package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
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
 * The first step of every reading: registry-framed Avro of bucketer's own {@code Reading} schema
 * decoded, by {@link ReadingDecoder} (the bench's peers use it) and by {@link MappedAvroDecoder}
 * with the default mapping (what the processor runs at input.format=avro). The writer schemas are
 * already cached, as they are after a topic's first record, so no registry is asked; what is
 * measured is framing, schema resolution and Avro. A foreign schema through a mapping is {@link
 * MappedAvroDecodeBenchmark}; JSON is {@link JsonDecodeBenchmark}.
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

  private ReadingDecoder decoder;
  private MappedAvroDecoder mappedDefault;
  private byte[] fromCurrentProducer;
  private byte[] fromOlderProducer;

  @Setup
  public void encodeReadingsAndCacheTheirSchemas() throws IOException, InvalidReadingException {
    final MapSchemaLookup schemas =
        new MapSchemaLookup()
            .with(CURRENT_SCHEMA_ID, Reading.getClassSchema())
            .with(OLDER_SCHEMA_ID, WriterSchemas.V0_WITHOUT_OPTIONAL_FIELDS);
    decoder = new ReadingDecoder(schemas);
    mappedDefault = new MappedAvroDecoder(schemas, ReadingMapping.DEFAULT);
    // A reading as the simulator's sensors send it: every optional field set.
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
    // The first decode of each schema id checks compatibility and caches the resolving reader.
    decoder.decode(fromCurrentProducer);
    decoder.decode(fromOlderProducer);
    mappedDefault.readings(fromCurrentProducer);
    mappedDefault.readings(fromOlderProducer);
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

  /** Field values are raw Avro values: the timestamp is a long of epoch milliseconds. */
  private static byte[] framed(final int schemaId, final Schema writer, final Object... fields)
      throws IOException {
    return ConfluentWireFormat.frame(
        schemaId, WriterSchemas.body(WriterSchemas.record(writer, fields)));
  }
}
