package io.bucketer.ingest.senml;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;

/**
 * Resolves a pack's records as RFC 8428 section 4.6 defines it, one record at a time as the parser
 * reads them: each base field applies to its own record and every later one until a record gives it
 * again. The name is the base name and the name concatenated; the time the base time plus the time,
 * in seconds, relative to "now" below 2^28 (section 4.5.3), "now" being the Kafka record's
 * timestamp; the unit the record's, else the base unit; the value the base value plus the value,
 * the sum the base sum plus the sum. One resolver per pack: it holds the pack's base fields.
 *
 * <p>Choices where the RFC leaves room, each so that no reading is made up:
 *
 * <ul>
 *   <li>A base value or base sum applies to records that carry a value ({@code v}) or a sum ({@code
 *       s}); it never gives a reading to a record without one. Section 4.2 requires every record to
 *       carry its value, so a bare {@code bv} would otherwise turn a record of base fields only
 *       (the first record of the RFC's "Setting an Actuator" example) into a measurement.
 *   <li>A record that carries no value and no sum measures nothing: its base fields apply, and its
 *       name is not checked.
 *   <li>Records are kept in the pack's order rather than sorted by time: the windows do not care.
 *   <li>The rules are checked in the pack's order, and the first one broken is the reason.
 * </ul>
 */
final class SenmlResolver implements SenmlPackParser.Records {

  /** RFC 8428's version: a pack of a higher one must not be used (section 4.4). */
  static final long SUPPORTED_VERSION = 10;

  /** Times below 2^28 seconds are relative to "now" (section 4.5.3). */
  private static final double RELATIVE_BELOW_SECONDS = 268_435_456d;

  /** Beyond about 292 million years a time no longer fits a long of milliseconds. */
  private static final double MAX_MILLIS = 9.0e18;

  private static final int MAX_NAME_IN_MESSAGE = 120;

  /** What the resolved records measured, told as each record is resolved. */
  interface Measurements {

    /** A numeric value ({@code v}, base value added). */
    void value(String name, String unit, long timeMillis, double value);

    /** A sum ({@code s}, base sum added). */
    void sum(String name, String unit, long timeMillis, double sum);

    /** A value that is not a number. */
    void other(SkippedValues.Kind kind);
  }

  private final long nowMillis;
  private final Measurements measurements;
  private long version = SUPPORTED_VERSION;
  private String baseName = "";
  private double baseTime;
  private String baseUnit;
  private double baseValue;
  private double baseSum;
  private int records;
  private boolean measured;

  /**
   * @param nowMillis what "now" is for relative times: the Kafka record's timestamp; negative when
   *     unknown
   * @param measurements told of each value and sum, in the pack's order
   */
  SenmlResolver(final long nowMillis, final Measurements measurements) {
    this.nowMillis = nowMillis;
    this.measurements = measurements;
  }

  /**
   * @throws InvalidReadingException the record breaks a rule of RFC 8428
   */
  @Override
  public void accept(final SenmlRecord record) throws InvalidReadingException {
    records++;
    if (record.hasBaseVersion) {
      checkVersion(record);
    }
    if (record.baseName != null) {
      baseName = record.baseName;
    }
    if (record.hasBaseTime) {
      baseTime = record.baseTime;
    }
    if (record.baseUnit != null) {
      baseUnit = record.baseUnit;
    }
    if (record.hasBaseValue) {
      baseValue = record.baseValue;
    }
    if (record.hasBaseSum) {
      baseSum = record.baseSum;
    }
    if (!record.measures()) {
      return;
    }
    if (record.valueFields() > 1) {
      throw new InvalidReadingException(
          Reason.MALFORMED_SENML,
          "record "
              + record.position
              + " holds more than one of v, vs, vb and vd (RFC 8428 section 4.2: exactly one)");
    }
    measured = true;
    final String name = record.name == null ? baseName : baseName + record.name;
    checkName(name, record.position);
    final String unit = record.unit != null ? record.unit : baseUnit;
    final long time = millis(baseTime + (record.hasTime ? record.time : 0), record.position);
    if (record.hasValue) {
      measurements.value(name, unit, time, baseValue + record.value);
    }
    if (record.hasSum) {
      measurements.sum(name, unit, time, baseSum + record.sum);
    }
    final SkippedValues.Kind other = otherValue(record);
    if (other != null) {
      measurements.other(other);
    }
  }

  /**
   * Once the whole pack was accepted.
   *
   * @throws InvalidReadingException {@code no-values} when no record measured anything
   */
  void finish() throws InvalidReadingException {
    if (!measured) {
      throw new InvalidReadingException(
          Reason.NO_VALUES,
          "none of the pack's " + records + " record(s) has a value (v, vs, vb, vd) or a sum");
    }
  }

  /** Section 4.4: no version above ours, and one version for the whole pack. */
  private void checkVersion(final SenmlRecord record) throws InvalidReadingException {
    final long given = record.baseVersion;
    if (given > SUPPORTED_VERSION) {
      throw new InvalidReadingException(
          Reason.UNSUPPORTED_SENML_VERSION,
          "record "
              + record.position
              + " gives bver "
              + given
              + ", higher than RFC 8428's "
              + SUPPORTED_VERSION
              + ": such a pack must not be used (RFC 8428 section 4.4)");
    }
    // The first record sets the pack's version; a later one that differs breaks the rule that all
    // records of a pack have the same version.
    if (record.position > 1 && given != version) {
      throw new InvalidReadingException(
          Reason.MALFORMED_SENML,
          "record "
              + record.position
              + " gives bver "
              + given
              + " in a pack of version "
              + version
              + ": all records of a pack must have the same version (RFC 8428 section 4.4)");
    }
    version = given;
  }

  /** Section 4.5.1, as {@link #invalidCharacter} checks it. */
  private static void checkName(final String name, final int position)
      throws InvalidReadingException {
    if (name.isEmpty()) {
      throw new InvalidReadingException(
          Reason.SENML_NO_NAME,
          "record "
              + position
              + " has a value but no name: neither a name (n) nor a base name (bn) applies");
    }
    final int i = invalidCharacter(name);
    if (i >= 0) {
      final char c = name.charAt(i);
      throw new InvalidReadingException(
          Reason.SENML_INVALID_NAME,
          "record "
              + position
              + " has the name "
              + quoted(name)
              + (i == 0 && isSymbol(c)
                  ? ", which starts with '" + c + "' rather than a letter or a digit"
                  : ", whose character " + describe(c) + " at " + i + " is not allowed")
              + " (RFC 8428 section 4.5.1: A-Z a-z 0-9 - : . / _, starting with a letter or a"
              + " digit)");
    }
  }

  /**
   * Section 4.5.1: a name holds A-Z, a-z, 0-9, '-', ':', '.', '/' and '_', and starts with a letter
   * or a digit. A loop rather than a regular expression: it runs for every record, and it is the
   * whole rule.
   *
   * @return the index of the first character that breaks the rule; -1 when none does
   */
  static int invalidCharacter(final String name) {
    for (int i = 0; i < name.length(); i++) {
      final char c = name.charAt(i);
      final boolean alphanumeric =
          (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (!alphanumeric && (i == 0 || !isSymbol(c))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isSymbol(final char c) {
    return c == '-' || c == ':' || c == '.' || c == '/' || c == '_';
  }

  private static String describe(final char c) {
    return c >= 0x21 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  private static String quoted(final String name) {
    return '"'
        + (name.length() > MAX_NAME_IN_MESSAGE
            ? name.substring(0, MAX_NAME_IN_MESSAGE) + "..."
            : name)
        + '"';
  }

  private long millis(final double seconds, final int position) throws InvalidReadingException {
    final double millis = seconds * 1000d;
    if (!Double.isFinite(millis) || Math.abs(millis) >= MAX_MILLIS) {
      throw new InvalidReadingException(
          Reason.NOT_A_TIME,
          "record " + position + " has the time " + seconds + " s (bt + t), which is no instant");
    }
    if (seconds >= RELATIVE_BELOW_SECONDS) {
      return Math.round(millis);
    }
    if (nowMillis < 0) {
      throw new InvalidReadingException(
          Reason.NOT_A_TIME,
          "record "
              + position
              + " has a time relative to now ("
              + seconds
              + " s, below 2^28), and the Kafka record has no timestamp to say when now was");
    }
    return nowMillis + Math.round(millis);
  }

  private static SkippedValues.Kind otherValue(final SenmlRecord record) {
    if (record.stringValue != null) {
      return SkippedValues.Kind.STRING;
    }
    if (record.hasBooleanValue) {
      return SkippedValues.Kind.BOOLEAN;
    }
    return record.dataValue ? SkippedValues.Kind.DATA : null;
  }
}
