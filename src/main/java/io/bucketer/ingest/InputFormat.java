package io.bucketer.ingest;

/** What the input topic's record values are (input.format), and the decoder that reads them. */
public enum InputFormat {
  /** Confluent Schema Registry framed Avro, any writer schema, read through the mapping. */
  AVRO("avro"),
  /** One UTF-8 JSON object per record, no registry. */
  JSON("json");

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

  /** A decoder of this format; {@code schemas} is asked only for Avro. */
  public InputDecoder decoder(final ReadingMapping mapping, final SchemaLookup schemas) {
    return switch (this) {
      case AVRO -> new MappedAvroDecoder(schemas, mapping);
      case JSON -> new JsonReadingDecoder(mapping);
    };
  }
}
