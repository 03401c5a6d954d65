package io.bucketer.ingest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decodes a record value that is one UTF-8 JSON object, as MQTT bridges publish them
 * (input.format=json, no registry), into the readings a {@link ReadingMapping} finds in it. The
 * time is an ISO-8601 instant with its offset ({@code 2025-06-01T09:00:00Z}, {@code
 * 2025-06-01T11:00:00+02:00}) or an integer of epoch milliseconds; values are JSON numbers; the
 * sensor id a string or an integer. A value that is not one JSON object (an array, a bare number,
 * trailing text) is {@code malformed-json}. Stateless and safe for concurrent use.
 */
public final class JsonReadingDecoder implements InputDecoder {

  // A key given twice is ambiguous: which one would the gateway have meant?
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final ReadingMapping mapping;

  public JsonReadingDecoder(final ReadingMapping mapping) {
    this.mapping = Objects.requireNonNull(mapping, "mapping");
  }

  @Override
  public List<Reading> readings(final InputRecord input) throws InvalidReadingException {
    final byte[] value = input.value();
    if (value == null) {
      throw new InvalidReadingException(Reason.MALFORMED_JSON, "record value is null");
    }
    return readings(input, parse(value, 0, value.length));
  }

  /**
   * The readings of {@code record}, the JSON object in {@code input}, parsed with {@link #parse}:
   * for formats that frame one.
   */
  List<Reading> readings(final InputRecord input, final JsonNode record)
      throws InvalidReadingException {
    final String id =
        mapping.sensorIdSource().inPayload()
            ? sensorId(record)
            : mapping.sensorIdSource().outside(input);
    final Instant time = time(at(record, mapping.time()));
    final String metric =
        mapping.metric().isEmpty() ? null : metric(mapping.metric().get(), record);
    final Integer utcOffset =
        mapping.utcOffset().isEmpty() ? null : utcOffset(mapping.utcOffset().get(), record);
    final List<FieldPath> valueFields =
        mapping.allNumericValues() ? numericFields(record) : mapping.values();
    final Double[] found = new Double[valueFields.size()];
    for (int i = 0; i < found.length; i++) {
      final JsonNode number = at(record, valueFields.get(i));
      if (number != null && !number.isNumber()) {
        throw new InvalidReadingException(
            Reason.NOT_A_NUMBER,
            "the value field " + valueFields.get(i) + " holds " + number + ", not a number");
      }
      found[i] = number == null ? null : number.doubleValue();
    }
    return mapping.readings(id, time, metric, utcOffset, valueFields, found);
  }

  private String sensorId(final JsonNode record) throws InvalidReadingException {
    final JsonNode id = at(record, mapping.sensorId());
    if (id == null) {
      throw missing("sensor id", mapping.sensorId());
    }
    if (!id.isTextual() && !id.isIntegralNumber()) {
      throw wrongType("sensor id", mapping.sensorId(), "a string or an integer", id);
    }
    return id.asText();
  }

  /**
   * input.value.fields=*: the record's top-level numbers, in the record's order, but those mapped
   * to another role. Booleans, strings and nested objects are no values.
   */
  private List<FieldPath> numericFields(final JsonNode record) {
    final List<FieldPath> fields = new ArrayList<>();
    for (final Map.Entry<String, JsonNode> field : record.properties()) {
      if (field.getValue().isNumber() && !mapping.isOtherRole(field.getKey())) {
        fields.add(new FieldPath(List.of(field.getKey())));
      }
    }
    return fields;
  }

  /**
   * The one JSON object in {@code data[offset, offset + length)}.
   *
   * @throws InvalidReadingException {@code malformed-json} when it is not one
   */
  static JsonNode parse(final byte[] data, final int offset, final int length)
      throws InvalidReadingException {
    final JsonNode record;
    try {
      record = JSON.readTree(data, offset, length);
    } catch (JsonProcessingException e) {
      // The original message: without the quoted record and location Jackson appends.
      throw new InvalidReadingException(
          Reason.MALFORMED_JSON, "not JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new InvalidReadingException(Reason.MALFORMED_JSON, "not JSON: " + e, e);
    }
    if (record == null || !record.isObject()) {
      throw new InvalidReadingException(
          Reason.MALFORMED_JSON,
          "expected one JSON object, found "
              + (record == null || record.isMissingNode() ? "nothing" : record.getNodeType()));
    }
    return record;
  }

  /** The field at {@code path}; null when it, or a record on its way, is absent or null. */
  private static JsonNode at(final JsonNode record, final FieldPath path) {
    JsonNode node = record;
    for (final String segment : path.segments()) {
      node = node.isObject() ? node.get(segment) : null;
      if (node == null || node.isNull()) {
        return null;
      }
    }
    return node;
  }

  private Instant time(final JsonNode time) throws InvalidReadingException {
    if (time == null) {
      throw missing("time", mapping.time());
    }
    if (time.isIntegralNumber() && time.canConvertToLong()) {
      return Instant.ofEpochMilli(time.longValue());
    }
    if (time.isTextual()) {
      try {
        // With its offset: a local date-time would be ambiguous.
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(time.textValue(), Instant::from);
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    throw new InvalidReadingException(
        Reason.NOT_A_TIME,
        "the time field "
            + mapping.time()
            + " holds "
            + time
            + ", neither an ISO-8601 instant with offset nor an integer of epoch milliseconds");
  }

  private static String metric(final FieldPath path, final JsonNode record)
      throws InvalidReadingException {
    final JsonNode metric = at(record, path);
    if (metric != null && !metric.isTextual()) {
      throw wrongType("metric", path, "a string", metric);
    }
    return metric == null ? null : metric.textValue();
  }

  private static Integer utcOffset(final FieldPath path, final JsonNode record)
      throws InvalidReadingException {
    final JsonNode offset = at(record, path);
    if (offset != null && !(offset.isIntegralNumber() && offset.canConvertToInt())) {
      throw wrongType("UTC offset", path, "an integer of minutes", offset);
    }
    return offset == null ? null : offset.intValue();
  }

  private static InvalidReadingException missing(final String role, final FieldPath path) {
    return new InvalidReadingException(
        Reason.MISSING_FIELD, "the " + role + " field " + path + " is absent or null");
  }

  private static InvalidReadingException wrongType(
      final String role, final FieldPath path, final String expected, final JsonNode found) {
    return new InvalidReadingException(
        Reason.WRONG_TYPE,
        "the " + role + " field " + path + " holds " + found + ", expected " + expected);
  }
}
