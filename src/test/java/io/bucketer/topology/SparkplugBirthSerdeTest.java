package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.ingest.sparkplug.SparkplugBirth;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class SparkplugBirthSerdeTest {

  private final SparkplugBirthSerde serde = new SparkplugBirthSerde();

  @Test
  void shouldWriteItsFormatFirstAndReadTheBirthBack() {
    final SparkplugBirth birth =
        new SparkplugBirth(7L, List.of(new SparkplugBirth.Metric("Pressure", 3L, 10)));

    final byte[] json = serde.serializer().serialize("", birth);

    assertThat(new String(json, StandardCharsets.UTF_8)).startsWith("{\"format\":1,");
    assertThat(serde.deserializer().deserialize("", json)).isEqualTo(birth);
  }

  /** A newer build's birth, after a downgrade: its fields may mean something else. */
  @Test
  void shouldRefuseABirthOfALaterFormat() {
    final byte[] later =
        "{\"format\":2,\"timestamp\":7,\"metrics\":[]}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> serde.deserializer().deserialize("", later))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("format 2");
  }
}
