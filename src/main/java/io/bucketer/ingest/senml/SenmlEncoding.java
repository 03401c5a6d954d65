package io.bucketer.ingest.senml;

/** How a SenML pack is written (input.senml.encoding): RFC 8428 section 5 or section 6. */
public enum SenmlEncoding {
  /** application/senml+json: an array of objects with the labels bn, bt, n, v, ... */
  JSON("json"),
  /**
   * application/senml+cbor: an array of maps keyed by the RFC's integers (bn -2, n 0, v 2, ...).
   */
  CBOR("cbor");

  private final String label;

  SenmlEncoding(final String label) {
    this.label = label;
  }

  /** The setting's value. */
  public String label() {
    return label;
  }

  /**
   * @throws IllegalArgumentException for a label that is no encoding
   */
  public static SenmlEncoding of(final String label) {
    for (final SenmlEncoding encoding : values()) {
      if (encoding.label.equals(label)) {
        return encoding;
      }
    }
    throw new IllegalArgumentException("no SenML encoding " + label);
  }
}
