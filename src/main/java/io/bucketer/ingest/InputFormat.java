package io.bucketer.ingest;

import io.bucketer.ingest.protobuf.DescriptorSetDecoder;
import io.bucketer.ingest.protobuf.ProtobufDecoder;
import io.bucketer.ingest.senml.SenmlDecoder;
import io.bucketer.ingest.senml.SenmlOptions;
import java.util.Optional;

/** What the input topic's record values are (input.format), and the decoder that reads them. */
public enum InputFormat {
  /** Confluent Schema Registry framed Avro, any writer schema, read through the mapping. */
  AVRO("avro"),
  /** One UTF-8 JSON object per record, no registry. */
  JSON("json"),
  /** One SenML pack (RFC 8428) per record, in JSON or CBOR, no registry and no mapping. */
  SENML("senml"),
  /**
   * Confluent Schema Registry framed Protobuf (with message indexes), or bare Protobuf binary of
   * one message type from a descriptor set.
   */
  PROTOBUF("protobuf"),
  /** Confluent Schema Registry framed JSON: one UTF-8 JSON object after the 5-byte header. */
  JSON_SCHEMA("json-schema"),
  /**
   * Sparkplug B payloads with their MQTT topic in the key or a header. Decoding needs the state of
   * the BIRTH messages, so the topology's own Sparkplug processors read it, not an {@link
   * InputDecoder}.
   */
  SPARKPLUG_B("sparkplug-b");

  private final String label;

  InputFormat(final String label) {
    this.label = label;
  }

  /** The setting's value. */
  public String label() {
    return label;
  }

  /**
   * @throws IllegalArgumentException for a label that is no format
   */
  public static InputFormat of(final String label) {
    for (final InputFormat format : values()) {
      if (format.label.equals(label)) {
        return format;
      }
    }
    throw new IllegalArgumentException("no input format " + label);
  }

  /** Whether its decoder asks a schema registry, with {@code options}. */
  public boolean needsRegistry(final FormatOptions options) {
    return switch (this) {
      case AVRO -> true;
      case JSON, SENML, SPARKPLUG_B -> false;
      case PROTOBUF -> options.protobufMessage().isEmpty();
      case JSON_SCHEMA -> options.validateJsonSchema();
    };
  }

  /**
   * A decoder of this format, SenML with its default options.
   *
   * @throws IllegalStateException for Sparkplug B, which no stateless decoder reads
   */
  public InputDecoder decoder(final ReadingMapping mapping, final SchemaLookup schemas) {
    return decoder(mapping, schemas, SenmlOptions.DEFAULT);
  }

  /**
   * A decoder of this format; {@code schemas} is asked only for Avro, {@code mapping} only for Avro
   * and JSON, {@code senml} only for SenML.
   *
   * @throws IllegalStateException for Sparkplug B, which no stateless decoder reads
   */
  public InputDecoder decoder(
      final ReadingMapping mapping, final SchemaLookup schemas, final SenmlOptions senml) {
    return decoder(mapping, schemas, null, FormatOptions.NONE.withSenml(senml));
  }

  /**
   * A decoder of this format.
   *
   * @param avroSchemas asked for Avro only
   * @param registeredSchemas asked for Protobuf and JSON Schema when {@link #needsRegistry} says
   *     so; may be null otherwise
   */
  public InputDecoder decoder(
      final ReadingMapping mapping,
      final SchemaLookup avroSchemas,
      final SchemaTextLookup registeredSchemas,
      final FormatOptions options) {
    if (needsRegistry(options) && this != AVRO && registeredSchemas == null) {
      throw new IllegalArgumentException("input.format=" + label + " needs a schema registry here");
    }
    return switch (this) {
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
