package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class SeriesClockSerdeTest {

  private final SeriesClockSerde serde = new SeriesClockSerde();

  @Test
  void shouldWriteAFormatByteAndTheClock() {
    final byte[] bytes = serde.serializer().serialize("", -5L);

    assertThat(bytes).hasSize(9).startsWith(SeriesClockSerde.FORMAT);
    assertThat(serde.deserializer().deserialize("", bytes)).isEqualTo(-5L);
  }

  /** What the store held before the format byte: Kafka's LongSerde, told apart by its length. */
  @Test
  void shouldReadTheBareLongOfEarlierBuilds() {
    final byte[] old = Serdes.Long().serializer().serialize("", 1_700_000_000_000L);

    assertThat(serde.deserializer().deserialize("", old)).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void shouldRefuseALaterFormatOrAnotherLength() {
    final byte[] later = serde.serializer().serialize("", 1L);
    later[0] = 2;

    assertThatThrownBy(() -> serde.deserializer().deserialize("", later))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("format 2");
    assertThatThrownBy(() -> serde.deserializer().deserialize("", new byte[] {1, 2, 3}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("3 bytes");
  }

  @Test
  void shouldKeepNullNull() {
    assertThat(serde.serializer().serialize("", null)).isNull();
    assertThat(serde.deserializer().deserialize("", null)).isNull();
  }
}
