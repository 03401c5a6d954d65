package io.bucketer.ingest.senml;

/**
 * One record of a pack as it was written, before resolution: each field null when absent. Numbers
 * are doubles, as RFC 8428 section 5 asks receivers to read them; {@code dataValue} only says
 * whether a vd was there, since binary data never becomes a reading.
 *
 * @param position the record's place in its pack, from 1, as RFC 8428's fragment identifiers
 *     ({@code #rec=3}) count them
 */
record SenmlRecord(
    int position,
    Long baseVersion,
    String baseName,
    Double baseTime,
    String baseUnit,
    Double baseValue,
    Double baseSum,
    String name,
    String unit,
    Double value,
    String stringValue,
    Boolean booleanValue,
    boolean dataValue,
    Double sum,
    Double time) {

  /** How many of v, vs, vb and vd it holds: RFC 8428 section 4.2 allows one. */
  int valueFields() {
    return (value != null ? 1 : 0)
        + (stringValue != null ? 1 : 0)
        + (booleanValue != null ? 1 : 0)
        + (dataValue ? 1 : 0);
  }

  /** True when it measured something: a value of any kind or a sum. */
  boolean measures() {
    return valueFields() > 0 || sum != null;
  }
}
