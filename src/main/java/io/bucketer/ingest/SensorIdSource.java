package io.bucketer.ingest;

import io.bucketer.ingest.InvalidReadingException.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a record's sensor id is (input.sensor.id.from): in its payload, at the mapping's sensor id
 * field (the default); or around it, in the record's key or a named header, as MQTT bridges often
 * put the device's topic or id there. An id taken from outside may lose a prefix
 * (input.sensor.id.prefix), such as a topic's {@code devices/}.
 *
 * @param where the payload, the key or a header
 * @param header the header's name, with {@link Where#HEADER}; else null
 * @param prefix what to strip from the id taken from outside; empty: nothing
 */
public record SensorIdSource(Where where, String header, String prefix) {

  /** The sensor id field of the payload. */
  public static final SensorIdSource PAYLOAD = new SensorIdSource(Where.PAYLOAD, null, "");

  /** Where the id is. */
  public enum Where {
    PAYLOAD,
    KEY,
    HEADER
  }

  public SensorIdSource {
    Objects.requireNonNull(where, "where");
    prefix = prefix == null ? "" : prefix;
    if ((where == Where.HEADER) != (header != null && !header.isBlank())) {
      throw new IllegalArgumentException("a header's name is needed with, and only with, header:");
    }
    if (where == Where.PAYLOAD && !prefix.isEmpty()) {
      throw new IllegalArgumentException(
          "a prefix is stripped only from an id taken from the key or a header");
    }
  }

  /**
   * Reads the setting's value: {@code field}, {@code key} or {@code header:<name>}.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static SensorIdSource parse(final String setting, final String prefix) {
    final String value = setting.trim();
    if (value.equals("field")) {
      return new SensorIdSource(Where.PAYLOAD, null, prefix);
    }
    if (value.equals("key")) {
      return new SensorIdSource(Where.KEY, null, prefix);
    }
    if (value.startsWith("header:") && value.length() > "header:".length()) {
      return new SensorIdSource(Where.HEADER, value.substring("header:".length()), prefix);
    }
    throw new IllegalArgumentException(
        "expected field, key or header:<name>, not '" + setting + "'");
  }

  public boolean inPayload() {
    return where == Where.PAYLOAD;
  }

  /**
   * The id taken from the record's key or header: its UTF-8 text, without the prefix.
   *
   * @throws InvalidReadingException {@code no-sensor-id}: the key or header is absent, empty, not
   *     UTF-8, or does not start with the prefix (another device family's, or a bridge set up
   *     otherwise: taking it whole would make series no one asked for)
   */
  public String outside(final InputRecord record) throws InvalidReadingException {
    final byte[] bytes =
        where == Where.KEY ? record.key() : record.headers().lastValue(Objects.toString(header));
    final String from = where == Where.KEY ? "the record key" : "the header " + header;
    if (bytes == null || bytes.length == 0) {
      throw new InvalidReadingException(Reason.NO_SENSOR_ID, from + " is absent or empty");
    }
    final String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidReadingException(Reason.NO_SENSOR_ID, from + " is not UTF-8 text", e);
    }
    if (!text.startsWith(prefix)) {
      throw new InvalidReadingException(
          Reason.NO_SENSOR_ID, from + " does not start with the prefix '" + prefix + "'");
    }
    final String id = text.substring(prefix.length());
    if (id.isEmpty()) {
      throw new InvalidReadingException(
          Reason.NO_SENSOR_ID, from + " holds the prefix '" + prefix + "' and nothing after it");
    }
    return id;
  }

  /** The setting's value: {@code field}, {@code key} or {@code header:<name>}. */
  @Override
  public String toString() {
    return switch (where) {
      case PAYLOAD -> "field";
      case KEY -> "key";
      case HEADER -> "header:" + header;
    };
  }
}
