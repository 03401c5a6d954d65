package io.bucketer.ingest.protobuf;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaRegistryUnavailableException;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.SchemaTextLookup;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test schemas of this directory's resources (gateway.proto importing units.proto, see the
 * README there), registered in a map that stands for the registry, and messages of them framed as
 * Confluent's serializer frames them.
 */
final class TestSchemas {

  static final int GATEWAY_ID = 7;
  static final String UNITS_SUBJECT = "units";
  static final SchemaText UNITS = SchemaText.of(SchemaText.PROTOBUF, resource("units.proto"));
  static final SchemaText GATEWAY =
      new SchemaText(
          SchemaText.PROTOBUF,
          resource("gateway.proto"),
          List.of(new SchemaText.Reference("units.proto", UNITS_SUBJECT, 1)));

  /** gateway.proto as the decoder compiles it. */
  static final FileDescriptor FILE = compile();

  static final Descriptor GATEWAY_READING = FILE.findMessageTypeByName("GatewayReading");
  static final Descriptor META = GATEWAY_READING.findNestedTypeByName("Meta");
  static final Descriptor STATUS = GATEWAY_READING.findNestedTypeByName("Status");
  static final Descriptor MEASUREMENT = FILE.findMessageTypeByName("Measurement");
  static final Descriptor BATCH = FILE.findMessageTypeByName("Batch");
  static final Descriptor SAMPLE = BATCH.findNestedTypeByName("Sample");

  private TestSchemas() {}

  /** A mapping without a UTC offset; {@code metric} null for none. */
  static ReadingMapping mapping(
      final String sensorId, final String time, final String metric, final String... values) {
    return new ReadingMapping(
        FieldPath.parse(sensorId),
        FieldPath.parse(time),
        Optional.ofNullable(metric).map(FieldPath::parse),
        Optional.empty(),
        Arrays.stream(values).map(FieldPath::parse).toList());
  }

  static Path descriptorSet() {
    try {
      return Path.of(TestSchemas.class.getResource("gateway.desc").toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static String resource(final String name) {
    try (InputStream in = TestSchemas.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A message of {@code type} with the fields given as name, value pairs. */
  static DynamicMessage message(final Descriptor type, final Object... fields) {
    final DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    for (int i = 0; i < fields.length; i += 2) {
      final FieldDescriptor field = type.findFieldByName((String) fields[i]);
      if (field == null) {
        throw new IllegalArgumentException(type.getFullName() + " has no field " + fields[i]);
      }
      if (fields[i + 1] instanceof List<?> elements) {
        elements.forEach(element -> builder.addRepeatedField(field, element));
      } else {
        builder.setField(field, fields[i + 1]);
      }
    }
    return builder.buildPartial(); // partial: a test may leave a proto2 required field out
  }

  /** Framed under {@code schemaId}, with the message's own indexes. */
  static byte[] framed(final int schemaId, final Message message) {
    return framed(
        schemaId, MessageIndexes.of(message.getDescriptorForType()), message.toByteArray());
  }

  static byte[] framed(final int schemaId, final int[] indexes, final byte[] body) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      ConfluentWireFormat.writeHeader(out, schemaId);
      final CodedOutputStream coded = CodedOutputStream.newInstance(out);
      MessageIndexes.write(coded, indexes);
      coded.flush();
      out.writeBytes(body);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static FileDescriptor compile() {
    try {
      return ProtoSchemaCompiler.compile("gateway.proto", GATEWAY, new Registry());
    } catch (InvalidReadingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A registry of schema ids and subject versions, counting its lookups. */
  static final class Registry implements SchemaTextLookup {
    private final Map<Integer, SchemaText> byId = new ConcurrentHashMap<>();
    private final Map<String, SchemaText> byVersion = new ConcurrentHashMap<>();
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean down;

    Registry() {
      byVersion.put(UNITS_SUBJECT + "/1", UNITS);
      byId.put(GATEWAY_ID, GATEWAY);
    }

    Registry with(final int id, final SchemaText schema) {
      byId.put(id, schema);
      return this;
    }

    Registry withVersion(final String subject, final int version, final SchemaText schema) {
      byVersion.put(subject + "/" + version, schema);
      return this;
    }

    int calls() {
      return calls.get();
    }

    /** Whether lookups fail as an unreachable registry's do. */
    void down(final boolean down) {
      this.down = down;
    }

    @Override
    public SchemaText schemaTextById(final int id) throws InvalidReadingException {
      calls.incrementAndGet();
      if (down) {
        throw new SchemaRegistryUnavailableException("registry down", null);
      }
      final SchemaText schema = byId.get(id);
      if (schema == null) {
        throw new InvalidReadingException(Reason.UNKNOWN_SCHEMA_ID, "no schema " + id);
      }
      return schema;
    }

    @Override
    public SchemaText schemaTextByVersion(final String subject, final int version)
        throws InvalidReadingException {
      calls.incrementAndGet();
      final SchemaText schema = byVersion.get(subject + "/" + version);
      if (schema == null) {
        throw new InvalidReadingException(
            Reason.INCOMPATIBLE_SCHEMA, "the referenced schema " + subject + " version " + version);
      }
      return schema;
    }
  }
}
