package io.bucketer.ingest.formats;

import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.JsonReadingDecoder;
import io.bucketer.ingest.JsonSchemaDecoder;
import io.bucketer.ingest.JsonSchemaValidator;
import io.bucketer.ingest.MappedAvroDecoder;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaLookup;
import io.bucketer.ingest.SchemaTextLookup;
import io.bucketer.ingest.protobuf.DescriptorSetDecoder;
import io.bucketer.ingest.protobuf.ProtobufDecoder;
import io.bucketer.ingest.senml.SenmlDecoder;
import io.bucketer.ingest.senml.SenmlOptions;
import java.util.Optional;

/**
 * The decoder of each {@link InputFormat}: the one place that knows every format's package, above
 * them all, so that the formats' packages build on {@code ingest} and none depends on another.
 */
public final class InputDecoders {

  private InputDecoders() {}

  /** Whether the decoder of {@code format} asks a schema registry, with {@code options}. */
  public static boolean needsRegistry(final InputFormat format, final FormatOptions options) {
    return switch (format) {
      case AVRO -> true;
      case JSON, SENML, SPARKPLUG_B -> false;
      case PROTOBUF -> options.protobufMessage().isEmpty();
      case JSON_SCHEMA -> options.validateJsonSchema();
    };
  }

  /**
   * A decoder of {@code format}, SenML with its default options.
   *
   * @throws IllegalStateException for Sparkplug B, which no stateless decoder reads
   */
  public static InputDecoder of(
      final InputFormat format, final ReadingMapping mapping, final SchemaLookup schemas) {
    return of(format, mapping, schemas, SenmlOptions.DEFAULT);
  }

  /**
   * A decoder of {@code format}; {@code schemas} is asked only for Avro, {@code mapping} only for
   * Avro and JSON, {@code senml} only for SenML.
   *
   * @throws IllegalStateException for Sparkplug B, which no stateless decoder reads
   */
  public static InputDecoder of(
      final InputFormat format,
      final ReadingMapping mapping,
      final SchemaLookup schemas,
      final SenmlOptions senml) {
    return of(format, mapping, schemas, null, FormatOptions.NONE.withSenml(senml));
  }

  /**
   * A decoder of {@code format}.
   *
   * @param avroSchemas asked for Avro only
   * @param registeredSchemas asked for Protobuf and JSON Schema when {@link #needsRegistry} says
   *     so; may be null otherwise
   */
  public static InputDecoder of(
      final InputFormat format,
      final ReadingMapping mapping,
      final SchemaLookup avroSchemas,
      final SchemaTextLookup registeredSchemas,
      final FormatOptions options) {
    if (needsRegistry(format, options) && format != InputFormat.AVRO && registeredSchemas == null) {
      throw new IllegalArgumentException(
          "input.format=" + format.label() + " needs a schema registry here");
    }
    return switch (format) {
      case AVRO -> new MappedAvroDecoder(avroSchemas, mapping);
      case JSON -> new JsonReadingDecoder(mapping);
      case SENML -> new SenmlDecoder(options.senml());
      case PROTOBUF ->
          options.protobufMessage().isPresent()
              ? new DescriptorSetDecoder(options.protobufMessage().get(), mapping)
              : new ProtobufDecoder(registeredSchemas, mapping);
      case JSON_SCHEMA ->
          new JsonSchemaDecoder(
              mapping,
              options.validateJsonSchema()
                  ? Optional.of(new JsonSchemaValidator(registeredSchemas))
                  : Optional.empty());
      case SPARKPLUG_B ->
          throw new IllegalStateException(
              "sparkplug-b is read by the topology's Sparkplug processors: it needs their state");
    };
  }
}
