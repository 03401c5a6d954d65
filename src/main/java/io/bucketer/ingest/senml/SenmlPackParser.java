package io.bucketer.ingest.senml;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.IOException;

/**
 * Reads a pack's bytes record by record as written, checking each field's type (RFC 8428 Table 1)
 * and nothing about their meaning, which {@link SenmlResolver} checks. Jackson's streaming parser
 * reads JSON and CBOR alike, token by token, so no tree of the pack is built, and each record is
 * handed on as soon as it is read. Stateless and safe for concurrent use.
 */
final class SenmlPackParser {

  /** Takes each record of a pack in turn; the record is reused for the next one. */
  @FunctionalInterface
  interface Records {
    void accept(SenmlRecord record) throws InvalidReadingException;
  }

  // A label given twice in one record is ambiguous: which value would the sensor have meant?
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          // Every value and time is a decimal text to parse: Jackson's bundled FastDoubleParser
          // gives the same correctly rounded double as the JDK's, faster.
          .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
          .build();
  private static final JsonFactory CBOR =
      CBORFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private final SenmlEncoding encoding;
  private final JsonFactory factory;

  SenmlPackParser(final SenmlEncoding encoding) {
    this.encoding = encoding;
    this.factory = encoding == SenmlEncoding.CBOR ? CBOR : JSON;
  }

  /**
   * Hands each record of {@code pack} to {@code records}, in order.
   *
   * @throws InvalidReadingException {@code malformed-senml} for bytes that are not an array of one
   *     or more records of well-typed fields; {@code senml-must-understand} for a field whose label
   *     ends with '_'; whatever {@code records} throws
   */
  void read(final byte[] pack, final Records records) throws InvalidReadingException {
    if (pack == null) {
      throw malformed("record value is null");
    }
    try (JsonParser parser = factory.createParser(pack)) {
      final JsonToken first = parser.nextToken();
      if (first != JsonToken.START_ARRAY) {
        throw malformed("expected an array of records, found " + describe(first));
      }
      final SenmlRecord record = new SenmlRecord();
      int count = 0;
      for (JsonToken token = parser.nextToken();
          token != JsonToken.END_ARRAY;
          token = parser.nextToken()) {
        count++;
        if (token != JsonToken.START_OBJECT) {
          throw malformed("record " + count + " is " + describe(token) + ", not " + record());
        }
        record.clear(count);
        read(parser, record);
        records.accept(record);
      }
      final JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        throw malformed("the pack's array is followed by " + describe(trailing));
      }
      if (count == 0) {
        throw malformed("the pack holds no record (RFC 8428: one or more)");
      }
    } catch (StreamReadException e) {
      // The original message: without the quoted input and location Jackson appends.
      throw new InvalidReadingException(
          Reason.MALFORMED_SENML, "not " + encodingName() + ": " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new InvalidReadingException(
          Reason.MALFORMED_SENML, "not " + encodingName() + ": " + e.getMessage(), e);
    }
  }

  private void read(final JsonParser parser, final SenmlRecord record)
      throws IOException, InvalidReadingException {
    final int position = record.position;
    for (JsonToken token = parser.nextToken();
        token != JsonToken.END_OBJECT;
        token = parser.nextToken()) {
      if (token != JsonToken.FIELD_NAME) {
        // A CBOR map key that is neither a text nor an integer (Jackson refuses most itself).
        throw malformed("record " + position + " has a key that is " + describe(token));
      }
      final String key = parser.currentName();
      final JsonToken field = parser.nextToken();
      final SenmlLabel label = SenmlLabel.of(key, encoding);
      if (label == null) {
        if (key.endsWith("_")) {
          throw new InvalidReadingException(
              Reason.SENML_MUST_UNDERSTAND,
              "record "
                  + position
                  + " has the field "
                  + key
                  + ", which this reader does not know; a label ending in '_' must be"
                  + " understood (RFC 8428 section 4.4)");
        }
        // Unknown fields are ignored (RFC 8428 section 4.4), whatever they hold.
        parser.skipChildren();
        continue;
      }
      switch (label) {
        case BASE_VERSION -> {
          record.baseVersion = version(parser, field, position);
          record.hasBaseVersion = true;
        }
        case BASE_NAME -> record.baseName = text(parser, field, label, position);
        case BASE_TIME -> {
          record.baseTime = number(parser, field, label, position);
          record.hasBaseTime = true;
        }
        case BASE_UNIT -> record.baseUnit = text(parser, field, label, position);
        case BASE_VALUE -> {
          record.baseValue = number(parser, field, label, position);
          record.hasBaseValue = true;
        }
        case BASE_SUM -> {
          record.baseSum = number(parser, field, label, position);
          record.hasBaseSum = true;
        }
        case NAME -> record.name = text(parser, field, label, position);
        case UNIT -> record.unit = text(parser, field, label, position);
        case VALUE -> {
          record.value = number(parser, field, label, position);
          record.hasValue = true;
        }
        case STRING_VALUE -> record.stringValue = text(parser, field, label, position);
        case BOOLEAN_VALUE -> record.hasBooleanValue = bool(field, label, position);
        case DATA_VALUE -> record.dataValue = data(field, label, position);
        case SUM -> {
          record.sum = number(parser, field, label, position);
          record.hasSum = true;
        }
        case TIME -> {
          record.time = number(parser, field, label, position);
          record.hasTime = true;
        }
        // Checked for its type, otherwise unused: it says when the next reading is due.
        case UPDATE_TIME -> number(parser, field, label, position);
      }
    }
  }

  private static String text(
      final JsonParser parser, final JsonToken token, final SenmlLabel label, final int position)
      throws IOException, InvalidReadingException {
    if (token != JsonToken.VALUE_STRING) {
      throw wrongType(label, position, token, "a string");
    }
    return parser.getText();
  }

  private static double number(
      final JsonParser parser, final JsonToken token, final SenmlLabel label, final int position)
      throws IOException, InvalidReadingException {
    if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
      throw wrongType(label, position, token, "a number");
    }
    return parser.getDoubleValue();
  }

  private static long version(final JsonParser parser, final JsonToken token, final int position)
      throws IOException, InvalidReadingException {
    if (token != JsonToken.VALUE_NUMBER_INT
        || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
        || parser.getLongValue() < 1) {
      throw malformed(
          "record "
              + position
              + ": bver holds "
              + (token == JsonToken.VALUE_NUMBER_INT ? parser.getText() : describe(token))
              + ", expected a positive integer");
    }
    return parser.getLongValue();
  }

  /** Whether a boolean was there: its value never becomes a reading. */
  private static boolean bool(final JsonToken token, final SenmlLabel label, final int position)
      throws InvalidReadingException {
    if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
      throw wrongType(label, position, token, "a boolean");
    }
    return true;
  }

  /** Base64url text in JSON, a byte string in CBOR (RFC 8428 sections 5 and 6). */
  private static boolean data(final JsonToken token, final SenmlLabel label, final int position)
      throws InvalidReadingException {
    if (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_EMBEDDED_OBJECT) {
      throw wrongType(label, position, token, "binary data");
    }
    return true;
  }

  private static InvalidReadingException wrongType(
      final SenmlLabel label, final int position, final JsonToken found, final String expected) {
    return malformed(
        "record "
            + position
            + ": "
            + label.json()
            + " holds "
            + describe(found)
            + ", expected "
            + expected);
  }

  private static InvalidReadingException malformed(final String message) {
    return new InvalidReadingException(Reason.MALFORMED_SENML, message);
  }

  private String record() {
    return encoding == SenmlEncoding.CBOR ? "a map" : "an object";
  }

  private String encodingName() {
    return encoding == SenmlEncoding.CBOR ? "CBOR" : "JSON";
  }

  /** A token as a reader of the pack would name it, never its content. */
  private static String describe(final JsonToken token) {
    if (token == null) {
      return "nothing";
    }
    return switch (token) {
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      case VALUE_EMBEDDED_OBJECT -> "binary data";
      default -> token.toString();
    };
  }
}
