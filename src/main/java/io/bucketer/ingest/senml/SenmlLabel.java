package io.bucketer.ingest.senml;

import java.util.HashMap;
import java.util.Map;

/**
 * The fields RFC 8428 defines (section 4.3, Table 1), by their JSON label and their CBOR integer
 * (section 6, Table 4). Jackson's CBOR parser presents integer map keys as their decimal text, so
 * both encodings are looked up by a string.
 */
enum SenmlLabel {
  BASE_VERSION("bver", -1),
  BASE_NAME("bn", -2),
  BASE_TIME("bt", -3),
  BASE_UNIT("bu", -4),
  BASE_VALUE("bv", -5),
  BASE_SUM("bs", -6),
  NAME("n", 0),
  UNIT("u", 1),
  VALUE("v", 2),
  STRING_VALUE("vs", 3),
  BOOLEAN_VALUE("vb", 4),
  SUM("s", 5),
  TIME("t", 6),
  UPDATE_TIME("ut", 7),
  DATA_VALUE("vd", 8);

  private static final Map<String, SenmlLabel> JSON = new HashMap<>();
  private static final Map<String, SenmlLabel> CBOR = new HashMap<>();

  static {
    for (final SenmlLabel label : values()) {
      JSON.put(label.json, label);
      CBOR.put(Integer.toString(label.cbor), label);
      // The RFC's extensions use string keys in CBOR too: a producer that writes the JSON labels
      // in CBOR gets what it meant rather than a pack of unknown fields.
      CBOR.put(label.json, label);
    }
  }

  private final String json;
  private final int cbor;

  SenmlLabel(final String json, final int cbor) {
    this.json = json;
    this.cbor = cbor;
  }

  /** The JSON label, which messages name whatever the encoding. */
  String json() {
    return json;
  }

  /** The CBOR map key. */
  int cbor() {
    return cbor;
  }

  /** The field a key names in {@code encoding}; null for one RFC 8428 does not define. */
  static SenmlLabel of(final String key, final SenmlEncoding encoding) {
    return (encoding == SenmlEncoding.CBOR ? CBOR : JSON).get(key);
  }
}
