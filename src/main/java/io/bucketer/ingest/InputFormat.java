package io.bucketer.ingest;

/**
 * What the input topic's record values are (input.format). The decoder that reads each is made by
 * {@code io.bucketer.ingest.formats.InputDecoders}, which knows every format's package: this enum
 * stays in the package the formats build on, so that none of them depends on another.
 */
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
}
