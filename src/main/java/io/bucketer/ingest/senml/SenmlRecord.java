package io.bucketer.ingest.senml;

/**
 * One record of a pack as it was written, before resolution. The parser fills one of these for each
 * record of a pack in turn, reusing it, so that reading a record allocates nothing of its own: a
 * field's {@code has...} flag says whether it was there, a text field is null when absent. Numbers
 * are doubles, as RFC 8428 section 5 asks receivers to read them; {@code dataValue} only says
 * whether a vd was there, since binary data never becomes a reading.
 */
final class SenmlRecord {

  /** The record's place in its pack, from 1, as RFC 8428's fragment identifiers count them. */
  int position;

  boolean hasBaseVersion;
  long baseVersion;
  String baseName;
  boolean hasBaseTime;
  double baseTime;
  String baseUnit;
  boolean hasBaseValue;
  double baseValue;
  boolean hasBaseSum;
  double baseSum;
  String name;
  String unit;
  boolean hasValue;
  double value;
  String stringValue;
  boolean hasBooleanValue;
  boolean dataValue;
  boolean hasSum;
  double sum;
  boolean hasTime;
  double time;

  /** Forgets the previous record's fields, for the record at {@code position}. */
  void clear(final int position) {
    this.position = position;
    hasBaseVersion = false;
    baseName = null;
    hasBaseTime = false;
    baseUnit = null;
    hasBaseValue = false;
    hasBaseSum = false;
    name = null;
    unit = null;
    hasValue = false;
    stringValue = null;
    hasBooleanValue = false;
    dataValue = false;
    hasSum = false;
    hasTime = false;
  }

  /** How many of v, vs, vb and vd it holds: RFC 8428 section 4.2 allows one. */
  int valueFields() {
    return (hasValue ? 1 : 0)
        + (stringValue != null ? 1 : 0)
        + (hasBooleanValue ? 1 : 0)
        + (dataValue ? 1 : 0);
  }

  /** True when it measured something: a value of any kind or a sum. */
  boolean measures() {
    return valueFields() > 0 || hasSum;
  }
}
