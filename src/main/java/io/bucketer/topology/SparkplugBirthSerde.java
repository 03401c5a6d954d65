package io.bucketer.topology;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The birth store's values: a birth as JSON, {@code {"format": 1, "timestamp": ..., "metrics":
 * [{name, alias, datatype}, ...]}}. JSON because births are rare (written once per BIRTH, read once
 * per task start and node), and a changelog an operator can read helps when DATA is dead-lettered
 * as unknown-alias.
 *
 * <p>{@code format} is the layout's version, 1 now. Builds before it wrote the same object without
 * it: a birth without {@code format} is format 1. A birth in a later format (written by a newer
 * build that was rolled back) is refused rather than read as this one: its fields may mean
 * something else.
 */
final class SparkplugBirthSerde implements Serde<SparkplugBirth> {

  static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The stored form; {@code format} null in a birth from a build before formats. */
  @JsonPropertyOrder({"format", "timestamp", "metrics"})
  private record Stored(Integer format, long timestamp, List<SparkplugBirth.Metric> metrics) {}

  @Override
  public Serializer<SparkplugBirth> serializer() {
    return (topic, birth) -> {
      if (birth == null) {
        return null;
      }
      try {
        return JSON.writeValueAsBytes(new Stored(FORMAT, birth.timestamp(), birth.metrics()));
      } catch (IOException e) {
        throw new SerializationException("a Sparkplug birth could not be written", e);
      }
    };
  }

  @Override
  public Deserializer<SparkplugBirth> deserializer() {
    return (topic, data) -> {
      if (data == null) {
        return null;
      }
      try {
        final Stored stored = JSON.readValue(data, Stored.class);
        if (stored.format() != null && stored.format() != FORMAT) {
          throw new SerializationException(
              "a stored Sparkplug birth in format "
                  + stored.format()
                  + ", not one this build reads");
        }
        return new SparkplugBirth(stored.timestamp(), stored.metrics());
      } catch (IOException | IllegalArgumentException e) {
        throw new SerializationException("a stored Sparkplug birth could not be read", e);
      }
    };
  }
}
