package io.bucketer.ingest.sparkplug;

/**
 * One metric of a Sparkplug B payload, as much of it as bucketer reads: what identifies it, its
 * time and its value. Primitives with presence flags rather than boxes, as the payload's proto2
 * fields have presence: a DATA payload has many metrics.
 *
 * @param name the metric's name; null when the payload sends its alias alone
 * @param hasAlias whether an alias is sent
 * @param alias the alias (a uint64, as a Java long), when sent
 * @param hasTimestamp whether the metric has its own timestamp
 * @param timestamp its epoch milliseconds, when it has one
 * @param datatype the DataType number, 0 (Unknown) when not sent
 * @param historical is_historical
 * @param isNull is_null: the value is explicitly absent
 * @param valueField which field of the value oneof is set
 * @param integer int_value (unsigned 32 bits, in a long) or long_value (64 bits, as sent), or 1 and
 *     0 for boolean_value
 * @param real float_value or double_value
 */
public record SparkplugMetric(
    String name,
    boolean hasAlias,
    long alias,
    boolean hasTimestamp,
    long timestamp,
    int datatype,
    boolean historical,
    boolean isNull,
    ValueField valueField,
    long integer,
    double real) {

  /** Which field of the metric's value oneof holds its value. */
  public enum ValueField {
    NONE,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    BOOLEAN,
    STRING,
    /** bytes, a dataset, a template or an extension: nothing bucketer reads. */
    OTHER
  }

  /** The metric as a DATA message names it: by name, else by alias. */
  public String label() {
    return name != null ? name : "alias " + Long.toUnsignedString(alias);
  }
}
