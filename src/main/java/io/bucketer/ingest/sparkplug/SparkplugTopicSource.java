package io.bucketer.ingest.sparkplug;

import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a record keeps its MQTT topic (input.sparkplug.topic.from): MQTT bridges such as Kafka
 * Connect's MQTT sources and HiveMQ's or EMQX's Kafka extensions write it as the record key; others
 * as a header, often {@code mqtt_topic}.
 */
public sealed interface SparkplugTopicSource {

  /** The setting's value for the record key. */
  String KEY = "key";

  /** The setting's prefix for a header: {@code header:<name>}. */
  String HEADER_PREFIX = "header:";

  /** The topic is the record key, in UTF-8. */
  record Key() implements SparkplugTopicSource {
    @Override
    public byte[] bytesOf(final InputRecord record) {
      return record.key();
    }

    @Override
    public String toString() {
      return KEY;
    }
  }

  /** The topic is the value of the record's last header of this name, in UTF-8. */
  record Header(String name) implements SparkplugTopicSource {
    public Header {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("a header name is needed after " + HEADER_PREFIX);
      }
    }

    @Override
    public byte[] bytesOf(final InputRecord record) {
      return record.headers().lastValue(name);
    }

    @Override
    public String toString() {
      return HEADER_PREFIX + name;
    }
  }

  /**
   * @throws IllegalArgumentException for anything but {@code key} or {@code header:<name>}
   */
  static SparkplugTopicSource parse(final String setting) {
    if (KEY.equals(setting)) {
      return new Key();
    }
    if (setting != null && setting.startsWith(HEADER_PREFIX)) {
      return new Header(setting.substring(HEADER_PREFIX.length()));
    }
    throw new IllegalArgumentException("neither key nor header:<name>");
  }

  /** The topic's bytes as the record holds them; null when it holds none there. */
  byte[] bytesOf(InputRecord record);

  /**
   * @throws InvalidReadingException {@code sparkplug-no-topic} when the record has no topic here;
   *     {@code sparkplug-bad-topic} or {@code sparkplug-unknown-message-type} as {@link
   *     SparkplugTopic#parse} finds
   */
  default SparkplugTopic topicOf(final InputRecord record) throws InvalidReadingException {
    final byte[] bytes = bytesOf(record);
    if (bytes == null || bytes.length == 0) {
      throw new InvalidReadingException(
          Reason.SPARKPLUG_NO_TOPIC,
          "the record has no MQTT topic in its "
              + (this instanceof Header header ? "header " + header.name() : "key")
              + " (input.sparkplug.topic.from="
              + this
              + ")");
    }
    return SparkplugTopic.parse(new String(bytes, StandardCharsets.UTF_8));
  }
}
