package io.bucketer.ingest.protobuf;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.ConfluentWireFormat.Frame;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.SchemaTextLookup;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Decodes Confluent-framed Protobuf (input.format=protobuf with a registry) into the readings a
 * {@link ReadingMapping} finds in it: the 5-byte header, the message-index array ({@link
 * MessageIndexes}), then the Protobuf binary of the message the indexes name, read as a {@link
 * DynamicMessage}. The schema of each id is fetched with its references and compiled once ({@link
 * ProtoSchemaCompiler}), and a {@link MessagePlan} per message type of it once; both are cached, a
 * rejection included, so that one bad producer costs no compilation per record. An unreachable
 * registry is never cached: it raises, and the record is retried.
 *
 * <p>Safe for concurrent use.
 */
public final class ProtobufDecoder implements InputDecoder {

  private final SchemaTextLookup registry;
  private final ReadingMapping mapping;
  private final ConcurrentMap<Integer, SchemaPlans> schemas = new ConcurrentHashMap<>();

  public ProtobufDecoder(final SchemaTextLookup registry, final ReadingMapping mapping) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.mapping = Objects.requireNonNull(mapping, "mapping");
  }

  @Override
  public List<Reading> readings(final InputRecord record) throws InvalidReadingException {
    final Frame frame = ConfluentWireFormat.parse(record.value());
    final SchemaPlans schema = schemaFor(frame.schemaId());
    final CodedInputStream in =
        CodedInputStream.newInstance(frame.data(), frame.bodyOffset(), frame.bodyLength());
    final MessagePlan plan =
        schema.planFor(MessageIndexes.read(in, frame.bodyLength(), frame.schemaId()));
    return plan.readings(parse(plan.type(), in, frame.schemaId()), record);
  }

  /**
   * Why no record of the registered schema {@code schema} could give readings under {@code
   * mapping}: it does not compile, or none of its top-level messages has the mapped fields; empty
   * when one has. What the decoder would say of its records, said before any is sent ({@code
   * bucketer check}).
   */
  public static Optional<String> mismatch(
      final int schemaId,
      final SchemaText schema,
      final SchemaTextLookup registry,
      final ReadingMapping mapping) {
    final String what = "schema id " + schemaId;
    try {
      final FileDescriptor file = ProtoSchemaCompiler.compile(what, schema, registry);
      InvalidReadingException first = null;
      for (final Descriptor type : file.getMessageTypes()) {
        try {
          MessagePlan.compile(what + ", message " + type.getFullName(), type, mapping);
          return Optional.empty();
        } catch (InvalidReadingException e) {
          first = first == null ? e : first;
        }
      }
      return Optional.of(first == null ? what + " declares no message" : first.getMessage());
    } catch (InvalidReadingException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Parses the rest of {@code in} as a {@code type}, or says why it is not one.
   *
   * @param schemaId the frame's, for the message; negative for a descriptor set's type (an int, not
   *     a text, so that a good record costs no string)
   */
  static DynamicMessage parse(final Descriptor type, final CodedInputStream in, final int schemaId)
      throws InvalidReadingException {
    try {
      return DynamicMessage.parseFrom(type, in);
    } catch (IOException | RuntimeException e) {
      // protobuf-java's messages name the problem, not the data: "While parsing a protocol
      // message, the input ended unexpectedly", "Message missing required fields: id".
      throw new InvalidReadingException(
          Reason.MALFORMED_PROTOBUF,
          "the body does not parse as "
              + type.getFullName()
              + " of "
              + (schemaId < 0 ? "the descriptor set" : "schema id " + schemaId)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private SchemaPlans schemaFor(final int schemaId) throws InvalidReadingException {
    SchemaPlans plans = schemas.get(schemaId);
    if (plans == null) {
      plans = compile(schemaId);
      final SchemaPlans raced = schemas.putIfAbsent(schemaId, plans);
      plans = raced == null ? plans : raced;
    }
    return plans;
  }

  private SchemaPlans compile(final int schemaId) throws InvalidReadingException {
    final String what = "schema id " + schemaId;
    try {
      return new SchemaPlans(
          schemaId,
          ProtoSchemaCompiler.compile(what, registry.schemaTextById(schemaId), registry),
          null);
    } catch (InvalidReadingException e) {
      if (e.reason() == Reason.UNKNOWN_SCHEMA_ID) {
        throw e; // not remembered: the id may be registered yet, as the Avro decoder does
      }
      return new SchemaPlans(schemaId, null, e);
    }
  }

  /** One schema id's file, or why it is refused, and the plans of its message types. */
  private final class SchemaPlans {
    private final int schemaId;
    private final FileDescriptor file;
    private final InvalidReadingException rejection;
    private final ConcurrentMap<List<Integer>, Compiled> byIndexes = new ConcurrentHashMap<>();
    // [0], by far the most common: no key to build per record.
    private volatile Compiled first;

    SchemaPlans(
        final int schemaId, final FileDescriptor file, final InvalidReadingException rejection) {
      this.schemaId = schemaId;
      this.file = file;
      this.rejection = rejection;
    }

    MessagePlan planFor(final int[] indexes) throws InvalidReadingException {
      if (rejection != null) {
        throw new InvalidReadingException(rejection.reason(), rejection.detail());
      }
      Compiled compiled;
      if (indexes == MessageIndexes.FIRST) {
        compiled = first;
        if (compiled == null) {
          compiled = compile(indexes);
          first = compiled;
        }
      } else {
        final List<Integer> key = Arrays.stream(indexes).boxed().toList();
        compiled = byIndexes.get(key);
        if (compiled == null) {
          compiled = compile(indexes);
          final Compiled raced = byIndexes.putIfAbsent(key, compiled);
          compiled = raced == null ? compiled : raced;
        }
      }
      if (compiled.plan() == null) {
        throw new InvalidReadingException(compiled.rejection(), compiled.why());
      }
      return compiled.plan();
    }

    private Compiled compile(final int[] indexes) {
      try {
        final Descriptor type = MessageIndexes.resolve(file, indexes, schemaId);
        return new Compiled(
            MessagePlan.compile(
                "schema id " + schemaId + ", message " + type.getFullName(), type, mapping),
            null,
            null);
      } catch (InvalidReadingException e) {
        return new Compiled(null, e.reason(), e.detail());
      }
    }
  }

  /** A plan, or why there is none. */
  private record Compiled(MessagePlan plan, Reason rejection, String why) {}
}
