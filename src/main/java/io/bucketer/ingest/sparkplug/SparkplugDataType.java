package io.bucketer.ingest.sparkplug;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.sparkplug.SparkplugMetric.ValueField;

/**
 * How a metric's value becomes a reading's number, by its Sparkplug datatype. The integer types
 * arrive in int_value (32 bits) or long_value (64 bits): Sparkplug 3.0 puts Int8 to Int32, UInt8
 * and UInt16 in int_value, the signed ones as two's complement, and Int64, UInt32 and UInt64 in
 * long_value, but encoders disagree about UInt32, so either field is read for every integer type
 * and narrowed to the type's width. Float and Double are read from float_value or double_value.
 */
public enum SparkplugDataType {
  INT8(1, Kind.INTEGER),
  INT16(2, Kind.INTEGER),
  INT32(3, Kind.INTEGER),
  INT64(4, Kind.INTEGER),
  UINT8(5, Kind.INTEGER),
  UINT16(6, Kind.INTEGER),
  UINT32(7, Kind.INTEGER),
  UINT64(8, Kind.INTEGER),
  FLOAT(9, Kind.REAL),
  DOUBLE(10, Kind.REAL),
  BOOLEAN(11, Kind.BOOLEAN),
  /** Any other datatype (String, DateTime, DataSet, Template, arrays, ...): not a measurement. */
  OTHER(-1, Kind.OTHER);

  /** What kind of reading, if any, a datatype gives. */
  public enum Kind {
    INTEGER,
    REAL,
    BOOLEAN,
    OTHER
  }

  private static final SparkplugDataType[] BY_CODE = new SparkplugDataType[12];

  static {
    for (final SparkplugDataType type : values()) {
      if (type.code > 0) {
        BY_CODE[type.code] = type;
      }
    }
  }

  private final int code;
  private final Kind kind;

  SparkplugDataType(final int code, final Kind kind) {
    this.code = code;
    this.kind = kind;
  }

  /** The type of a DataType number; {@link #OTHER} for the types that give no reading. */
  public static SparkplugDataType of(final int code) {
    return code > 0 && code < BY_CODE.length ? BY_CODE[code] : OTHER;
  }

  public int code() {
    return code;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The metric's value as a number: integers narrowed to this type's width and signedness, booleans
   * as 1 and 0.
   *
   * @throws InvalidReadingException {@code sparkplug-value-type-mismatch}: the value is in a field
   *     this type does not use, or in none
   * @throws IllegalStateException for {@link #OTHER}, which has no number
   */
  public double toDouble(final SparkplugMetric metric) throws InvalidReadingException {
    final ValueField field = metric.valueField();
    final long raw = metric.integer();
    switch (kind) {
      case INTEGER -> {
        if (field != ValueField.INT && field != ValueField.LONG) {
          throw mismatch(metric);
        }
        return switch (this) {
          case INT8 -> (byte) raw;
          case INT16 -> (short) raw;
          case INT32 -> (int) raw;
          case UINT8 -> raw & 0xFFL;
          case UINT16 -> raw & 0xFFFFL;
          case UINT32 -> raw & 0xFFFF_FFFFL;
          case UINT64 -> unsigned(raw);
          default -> raw; // INT64
        };
      }
      case REAL -> {
        if (field != ValueField.FLOAT && field != ValueField.DOUBLE) {
          throw mismatch(metric);
        }
        return metric.real();
      }
      case BOOLEAN -> {
        if (field != ValueField.BOOLEAN) {
          throw mismatch(metric);
        }
        return raw;
      }
      default -> throw new IllegalStateException(this + " gives no number");
    }
  }

  /** A uint64 above Long.MAX_VALUE as the double nearest to it. */
  private static double unsigned(final long raw) {
    if (raw >= 0) {
      return raw;
    }
    // Halve (keeping the lowest bit, so that rounding stays right), convert, double.
    return ((raw >>> 1) | (raw & 1)) * 2.0;
  }

  private InvalidReadingException mismatch(final SparkplugMetric metric) {
    return new InvalidReadingException(
        Reason.SPARKPLUG_VALUE_TYPE_MISMATCH,
        "metric "
            + metric.label()
            + " of datatype "
            + this
            + " holds "
            + (metric.valueField() == ValueField.NONE
                ? "no value and is not null"
                : "a value in its " + metric.valueField() + " field"));
  }
}
