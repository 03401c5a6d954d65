package io.bucketer.ingest.protobuf;

import com.google.protobuf.AnyProto;
import com.google.protobuf.ApiProto;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DurationProto;
import com.google.protobuf.EmptyProto;
import com.google.protobuf.FieldMaskProto;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.SourceContextProto;
import com.google.protobuf.StructProto;
import com.google.protobuf.TimestampProto;
import com.google.protobuf.TypeProto;
import com.google.protobuf.WrappersProto;
import com.squareup.wire.schema.CoreLoader;
import com.squareup.wire.schema.ErrorCollector;
import com.squareup.wire.schema.Linker;
import com.squareup.wire.schema.Loader;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.ProtoFile;
import com.squareup.wire.schema.Schema;
import com.squareup.wire.schema.internal.SchemaEncoder;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.SchemaTextLookup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns {@code .proto} source, as a Schema Registry holds it (a PROTOBUF schema and the schemas it
 * imports), into protobuf-java's descriptors, which {@code DynamicMessage} decodes with.
 * protobuf-java has no parser of {@code .proto} text (only {@code protoc} has), so Square's
 * wire-schema parses and links it, as Confluent's own Protobuf serde does.
 *
 * <p>From wire's linked schema to a {@code FileDescriptorProto}, wire's {@code SchemaEncoder} is
 * used: it lives in wire's {@code internal} package, and is the only encoder of a parsed file into
 * descriptor bytes that wire has (the alternative is a hand-written copy of it, several hundred
 * lines that would drift from the parser). {@code ProtoSchemaCompilerTest} checks the whole route
 * on every kind of declaration bucketer reads, so that a wire upgrade that changes it fails the
 * build.
 *
 * <p>The well-known types ({@code google/protobuf/timestamp.proto}, {@code wrappers.proto}, ...)
 * are not registered by producers: wire's own copies link them, and protobuf-java's built-in
 * descriptors stand for them, so that a field of type {@code google.protobuf.Timestamp} has the
 * very descriptor of {@code com.google.protobuf.Timestamp}.
 */
public final class ProtoSchemaCompiler {

  /** The file name the registered schema itself gets; its imports use their reference names. */
  static final String ROOT_FILE = "bucketer/registered-schema.proto";

  private static final Map<String, FileDescriptor> WELL_KNOWN = wellKnownFiles();

  private ProtoSchemaCompiler() {}

  /**
   * @param sources the files by the name they are imported by; {@code rootName} among them
   * @param what the schema, for messages ("schema id 7")
   * @return the descriptor of the file {@code rootName}, its imports resolved
   * @throws InvalidReadingException {@code incompatible-schema} when a file does not parse, an
   *     import is missing or a type is not defined
   */
  public static FileDescriptor compile(
      final String what, final String rootName, final Map<String, String> sources)
      throws InvalidReadingException {
    final Map<String, ProtoFile> parsed = new LinkedHashMap<>();
    for (final Map.Entry<String, String> source : sources.entrySet()) {
      parsed.put(source.getKey(), parse(what, source.getKey(), source.getValue()));
    }
    final Schema schema;
    try {
      schema =
          new Linker(new SourcesLoader(parsed), new ErrorCollector(), false, true)
              .link(parsed.values());
    } catch (RuntimeException e) {
      // wire's SchemaException lists every unresolved type and missing import, by file and line.
      throw incompatible(what, "does not link: " + e.getMessage(), e);
    }
    return build(what, rootName, schema, new HashMap<>(WELL_KNOWN));
  }

  /**
   * The registered schema {@code root} with every schema it references, fetched from {@code
   * registry} by subject and version, recursively.
   */
  public static FileDescriptor compile(
      final String what, final SchemaText root, final SchemaTextLookup registry)
      throws InvalidReadingException {
    final Map<String, String> sources = new LinkedHashMap<>();
    collect(what, ROOT_FILE, root, registry, sources);
    return compile(what, ROOT_FILE, sources);
  }

  private static void collect(
      final String what,
      final String name,
      final SchemaText schema,
      final SchemaTextLookup registry,
      final Map<String, String> sources)
      throws InvalidReadingException {
    if (!SchemaText.PROTOBUF.equals(schema.type())) {
      throw incompatible(
          what,
          (ROOT_FILE.equals(name) ? "is" : "references " + name + ", which is")
              + " a "
              + schema.type()
              + " schema, not PROTOBUF",
          null);
    }
    sources.put(name, schema.text());
    for (final SchemaText.Reference reference : schema.references()) {
      if (!sources.containsKey(reference.name())) {
        collect(
            what,
            reference.name(),
            registry.schemaTextByVersion(reference.subject(), reference.version()),
            registry,
            sources);
      }
    }
  }

  private static ProtoFile parse(final String what, final String name, final String text)
      throws InvalidReadingException {
    try {
      return ProtoFile.Companion.get(ProtoParser.Companion.parse(Location.get(name), text));
    } catch (RuntimeException e) {
      // wire's parser says where: "Syntax error in units.proto:3:7: expected ';'"
      throw incompatible(what, "has a file " + name + " that does not parse: " + e.getMessage(), e);
    }
  }

  private static FileDescriptor build(
      final String what,
      final String name,
      final Schema schema,
      final Map<String, FileDescriptor> built)
      throws InvalidReadingException {
    final FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    final ProtoFile file = schema.protoFile(name);
    try {
      final FileDescriptorProto proto =
          FileDescriptorProto.parseFrom(new SchemaEncoder(schema).encode(file).toByteArray());
      final List<FileDescriptor> dependencies = new ArrayList<>();
      for (final String dependency : proto.getDependencyList()) {
        dependencies.add(build(what, dependency, schema, built));
      }
      final FileDescriptor descriptor =
          FileDescriptor.buildFrom(proto, dependencies.toArray(FileDescriptor[]::new));
      built.put(name, descriptor);
      return descriptor;
    } catch (InvalidProtocolBufferException | DescriptorValidationException | RuntimeException e) {
      // RuntimeException: wire's encoder on a construct it cannot encode. A schema's fault, and
      // never to escape the decoder.
      throw incompatible(what, "is not a valid Protobuf file " + name + ": " + e.getMessage(), e);
    }
  }

  /** protobuf-java's own descriptor of a well-known file ({@code google/protobuf/...}), or null. */
  static FileDescriptor wellKnown(final String name) {
    return WELL_KNOWN.get(name);
  }

  private static InvalidReadingException incompatible(
      final String what, final String why, final Throwable cause) {
    return new InvalidReadingException(Reason.INCOMPATIBLE_SCHEMA, what + " " + why, cause);
  }

  private static Map<String, FileDescriptor> wellKnownFiles() {
    final Map<String, FileDescriptor> files = new HashMap<>();
    Stream.of(
            AnyProto.getDescriptor(),
            ApiProto.getDescriptor(),
            DescriptorProtos.getDescriptor(),
            DurationProto.getDescriptor(),
            EmptyProto.getDescriptor(),
            FieldMaskProto.getDescriptor(),
            SourceContextProto.getDescriptor(),
            StructProto.getDescriptor(),
            TimestampProto.getDescriptor(),
            TypeProto.getDescriptor(),
            WrappersProto.getDescriptor())
        .forEach(file -> files.put(file.getName(), file));
    return Map.copyOf(files);
  }

  /** The given files, and wire's own copies of the well-known types. */
  private record SourcesLoader(Map<String, ProtoFile> files) implements Loader {
    @Override
    public ProtoFile load(final String path) {
      final ProtoFile file = files.get(path);
      return file != null ? file : CoreLoader.INSTANCE.load(path);
    }

    @Override
    public Loader withErrors(final ErrorCollector errors) {
      return this;
    }
  }
}
