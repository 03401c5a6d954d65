package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat.Frame;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Decodes Confluent-framed Avro into {@link Reading}, resolving whatever writer schema the producer
 * used against {@code Reading}'s schema, as a Confluent consumer with specific.avro.reader does.
 *
 * <p>Safe for concurrent use: the per-id cache is a concurrent map, Avro's {@code
 * SpecificDatumReader} keeps its resolver per thread, and each call gets its own {@code
 * BinaryDecoder}. Reusing one decoder would save nothing worth the thread confinement: an
 * array-backed {@code BinaryDecoder} has no buffer of its own.
 *
 * <p>Trailing bytes after a complete record are rejected as {@code MALFORMED_AVRO}. Confluent's
 * serializer never writes any, so they mean the body and the schema id disagree, and the fields
 * that did decode cannot be trusted.
 */
public final class ReadingDecoder implements InputDecoder {

  private static final Schema READER_SCHEMA = Reading.getClassSchema();
  private static final SpecificData MODEL = SpecificData.getForClass(Reading.class);
  private static final Pattern TOP_LEVEL_FIELD = Pattern.compile("/fields/(\\d+)");

  private final SchemaLookup schemas;
  // Incompatible ids are cached too: one bad producer must not cost a compatibility check per
  // record.
  private final ConcurrentMap<Integer, Resolution> resolutions = new ConcurrentHashMap<>();

  public ReadingDecoder(final SchemaLookup schemas) {
    this.schemas = Objects.requireNonNull(schemas, "schemas");
  }

  /** The one reading of a record: {@link #decode}'s. */
  @Override
  public List<Reading> readings(final InputRecord record) throws InvalidReadingException {
    return List.of(decode(record.value()));
  }

  /**
   * @throws InvalidReadingException the record can never be decoded; dead-letter it
   * @throws SchemaRegistryException the writer schema could not be fetched; retry later
   */
  public Reading decode(final byte[] framed) throws InvalidReadingException {
    final Frame frame = ConfluentWireFormat.parse(framed);
    final DatumReader<Reading> reader = readerFor(frame.schemaId());
    final BinaryDecoder in =
        DecoderFactory.get()
            .binaryDecoder(frame.data(), frame.bodyOffset(), frame.bodyLength(), null);
    try {
      final Reading reading = reader.read(null, in);
      if (!in.isEnd()) {
        throw new InvalidReadingException(
            Reason.MALFORMED_AVRO,
            "bytes left over after a complete record with schema id " + frame.schemaId());
      }
      return reading;
    } catch (IOException | RuntimeException e) {
      // Avro reports bad input variously: EOFException, InvalidNumberEncodingException,
      // AvroRuntimeException (negative length), ArrayIndexOutOfBounds (union index), ...
      throw new InvalidReadingException(
          Reason.MALFORMED_AVRO,
          "Avro body does not decode with schema id " + frame.schemaId() + ": " + e,
          e);
    }
  }

  private DatumReader<Reading> readerFor(final int schemaId) throws InvalidReadingException {
    Resolution resolution = resolutions.get(schemaId);
    if (resolution == null) {
      resolution = resolve(schemaId, schemas.schemaById(schemaId));
      final Resolution raced = resolutions.putIfAbsent(schemaId, resolution);
      resolution = raced == null ? resolution : raced;
    }
    if (resolution.reader() == null) {
      throw new InvalidReadingException(Reason.INCOMPATIBLE_SCHEMA, resolution.incompatibility());
    }
    return resolution.reader();
  }

  /**
   * Checks compatibility up front because Avro only reports a failed resolution when a record is
   * read, as an exception indistinguishable from corrupt bytes. {@link MappedAvroDecoder} takes the
   * reader it returns for the default mapping's fast path.
   */
  static Resolution resolve(final int schemaId, final Schema writer) {
    final SchemaPairCompatibility pair =
        SchemaCompatibility.checkReaderWriterCompatibility(READER_SCHEMA, writer);
    if (pair.getType() != SchemaCompatibilityType.COMPATIBLE) {
      return Resolution.incompatible(
          "writer schema id "
              + schemaId
              + " cannot be read as "
              + READER_SCHEMA.getFullName()
              + ": "
              + pair.getResult().getIncompatibilities().stream()
                  .map(
                      i ->
                          i.getType()
                              + " at "
                              + namedLocation(i.getLocation())
                              + " ("
                              + i.getMessage()
                              + ")")
                  .collect(Collectors.joining("; ")));
    }
    final String timestampProblem = timestampUnitProblem(writer);
    if (timestampProblem != null) {
      return Resolution.incompatible("writer schema id " + schemaId + ": " + timestampProblem);
    }
    return new Resolution(new SpecificDatumReader<>(writer, READER_SCHEMA, MODEL), null);
  }

  /**
   * Avro locates an incompatibility by the reader field's position ({@code /fields/0/type/0}); the
   * field's name is what an operator knows, so it is added: {@code /fields/0[sensor_id]/type/0}.
   */
  private static String namedLocation(final String location) {
    final Matcher field = TOP_LEVEL_FIELD.matcher(location);
    if (!field.lookingAt()) {
      return location;
    }
    final int position = Integer.parseInt(field.group(1));
    if (position >= READER_SCHEMA.getFields().size()) {
      return location;
    }
    return field.group()
        + "["
        + READER_SCHEMA.getFields().get(position).name()
        + "]"
        + location.substring(field.end());
  }

  /**
   * Avro resolves logical types by their underlying type, so a timestamp-micros writer would be
   * read as milliseconds, a thousand times off. Plain long is accepted (assumed millis, as
   * documented).
   */
  private static String timestampUnitProblem(final Schema writer) {
    final Schema.Field field =
        writer.getType() == Schema.Type.RECORD ? writer.getField("timestamp") : null;
    final LogicalType type = field == null ? null : field.schema().getLogicalType();
    if (type == null || type instanceof LogicalTypes.TimestampMillis) {
      return null;
    }
    return "timestamp is " + type.getName() + ", expected timestamp-millis or plain long";
  }

  /** A resolving reader into {@code Reading}, or why there is none. */
  record Resolution(DatumReader<Reading> reader, String incompatibility) {
    static Resolution incompatible(final String why) {
      return new Resolution(null, why);
    }
  }
}
