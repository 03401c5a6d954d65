package io.bucketer.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The birth store's values: a birth as JSON, {@code {"timestamp": ..., "metrics": [{name, alias,
 * datatype}, ...]}}. JSON because births are rare (written once per BIRTH, read once per task start
 * and node), and a changelog an operator can read helps when DATA is dead-lettered as
 * unknown-alias.
 */
final class SparkplugBirthSerde implements Serde<SparkplugBirth> {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The stored form. */
  private record Stored(long timestamp, List<SparkplugBirth.Metric> metrics) {}

  @Override
  public Serializer<SparkplugBirth> serializer() {
    return (topic, birth) -> {
      if (birth == null) {
        return null;
      }
      try {
        return JSON.writeValueAsBytes(new Stored(birth.timestamp(), birth.metrics()));
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
        return new SparkplugBirth(stored.timestamp(), stored.metrics());
      } catch (IOException | IllegalArgumentException e) {
        throw new SerializationException("a stored Sparkplug birth could not be read", e);
      }
    };
  }
}
