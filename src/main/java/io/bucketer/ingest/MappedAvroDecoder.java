package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat.Frame;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;

/**
 * Decodes Confluent-framed Avro of any writer schema into the readings a {@link ReadingMapping}
 * finds in it (input.format=avro). For each schema id a plan is compiled once and cached, a
 * rejection included ({@link WriterSchemaPlan} says how writer schemas may evolve under it).
 *
 * <p>The default mapping reads a writer schema that resolves to bucketer's own {@code Reading}
 * exactly as {@link ReadingDecoder} does, with its specific reader: the common case costs no more
 * than before. Other writer schemas of the default mapping (a timestamp-micros, an integer sensor
 * id) take the general way.
 *
 * <p>Safe for concurrent use, as {@link ReadingDecoder} is. Trailing bytes after a complete record
 * are {@code malformed-avro}, as there.
 */
public final class MappedAvroDecoder implements InputDecoder {

  private final SchemaLookup schemas;
  private final ReadingMapping mapping;
  private final ConcurrentMap<Integer, Plan> plans = new ConcurrentHashMap<>();

  public MappedAvroDecoder(final SchemaLookup schemas, final ReadingMapping mapping) {
    this.schemas = Objects.requireNonNull(schemas, "schemas");
    this.mapping = Objects.requireNonNull(mapping, "mapping");
  }

  @Override
  public List<Reading> readings(final InputRecord record) throws InvalidReadingException {
    final Frame frame = ConfluentWireFormat.parse(record.value());
    final Plan plan = planFor(frame.schemaId());
    if (plan.reading() != null) {
      return List.of(read(plan.reading(), frame));
    }
    if (plan.mapped() != null) {
      return plan.mapped().readings(read(plan.mapped().reader(), frame), record);
    }
    throw new InvalidReadingException(plan.rejection(), plan.why());
  }

  private static <T> T read(final DatumReader<T> reader, final Frame frame)
      throws InvalidReadingException {
    final BinaryDecoder in =
        DecoderFactory.get()
            .binaryDecoder(frame.data(), frame.bodyOffset(), frame.bodyLength(), null);
    try {
      final T datum = reader.read(null, in);
      if (!in.isEnd()) {
        throw new InvalidReadingException(
            Reason.MALFORMED_AVRO,
            "bytes left over after a complete record with schema id " + frame.schemaId());
      }
      return datum;
    } catch (IOException | RuntimeException e) {
      // Avro reports bad input variously: EOFException, AvroRuntimeException, index errors, ...
      throw new InvalidReadingException(
          Reason.MALFORMED_AVRO,
          "Avro body does not decode with schema id " + frame.schemaId() + ": " + e,
          e);
    }
  }

  private Plan planFor(final int schemaId) throws InvalidReadingException {
    Plan plan = plans.get(schemaId);
    if (plan == null) {
      plan = compile(schemaId, schemas.schemaById(schemaId));
      final Plan raced = plans.putIfAbsent(schemaId, plan);
      plan = raced == null ? plan : raced;
    }
    return plan;
  }

  /**
   * Why no record of the writer schema {@code writer} could give readings under {@code mapping} (a
   * field it lacks, of the wrong type); empty when records of it can. What the decoder would say of
   * each record of that schema, said once before any is sent.
   */
  public static Optional<String> mismatch(
      final int schemaId, final Schema writer, final ReadingMapping mapping) {
    if (mapping.isDefault() && ReadingDecoder.resolve(schemaId, writer).reader() != null) {
      return Optional.empty();
    }
    try {
      WriterSchemaPlan.compile(schemaId, writer, mapping);
      return Optional.empty();
    } catch (InvalidReadingException e) {
      return Optional.of(e.getMessage());
    }
  }

  private Plan compile(final int schemaId, final Schema writer) {
    if (mapping.isDefault()) {
      final ReadingDecoder.Resolution resolution = ReadingDecoder.resolve(schemaId, writer);
      if (resolution.reader() != null) {
        return new Plan(resolution.reader(), null, null, null);
      }
    }
    try {
      return new Plan(null, WriterSchemaPlan.compile(schemaId, writer, mapping), null, null);
    } catch (InvalidReadingException e) {
      // Remembered, so that one bad producer costs no compilation per record.
      return new Plan(null, null, e.reason(), e.detail());
    }
  }

  /** One of: the fast reader into {@code Reading}, a mapping plan, or why the schema is refused. */
  private record Plan(
      DatumReader<Reading> reading, WriterSchemaPlan mapped, Reason rejection, String why) {}
}
