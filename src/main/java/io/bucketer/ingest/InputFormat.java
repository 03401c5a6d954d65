package io.bucketer.ingest;

import io.bucketer.ingest.senml.SenmlDecoder;
import io.bucketer.ingest.senml.SenmlOptions;

/** What the input topic's record values are (input.format), and the decoder that reads them. */
public enum InputFormat {
  /** Confluent Schema Registry framed Avro, any writer schema, read through the mapping. */
  AVRO("avro"),
  /** One UTF-8 JSON object per record, no registry. */
  JSON("json"),
  /** One SenML pack (RFC 8428) per record, in JSON or CBOR, no registry and no mapping. */
  SENML("senml"),
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
    return switch (this) {
      case AVRO -> new MappedAvroDecoder(schemas, mapping);
      case JSON -> new JsonReadingDecoder(mapping);
      case SENML -> new SenmlDecoder(senml);
      case SPARKPLUG_B ->
          throw new IllegalStateException(
              "sparkplug-b is read by the topology's Sparkplug processors: it needs their state");
    };
  }
}
