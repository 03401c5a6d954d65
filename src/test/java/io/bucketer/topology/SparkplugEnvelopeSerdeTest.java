package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class SparkplugEnvelopeSerdeTest {

  private final SparkplugEnvelopeSerde serde = new SparkplugEnvelopeSerde();

  @Test
  void shouldCarryTheTopicTheOriginalRecordAndItsPlaceAcrossTheRepartition() {
    final SparkplugEnvelope envelope =
        new SparkplugEnvelope(
            "spBv1.0/plant/DDATA/press/motor",
            "spBv1.0/plant/DDATA/press/motor".getBytes(StandardCharsets.UTF_8),
            new byte[] {8, 1, 0, (byte) 0xff},
            "iot.readings",
            5,
            1_234_567_890_123L);

    final SparkplugEnvelope read = roundTrip(envelope);

    assertThat(read.mqttTopic()).isEqualTo(envelope.mqttTopic());
    assertThat(read.originalKey()).isEqualTo(envelope.originalKey());
    assertThat(read.originalValue()).isEqualTo(envelope.originalValue());
    assertThat(read.sourceTopic()).isEqualTo("iot.readings");
    assertThat(read.sourcePartition()).isEqualTo(5);
    assertThat(read.sourceOffset()).isEqualTo(1_234_567_890_123L);
  }

  @Test
  void shouldKeepANullKeyAndANullValueApartFromEmptyOnes() {
    final SparkplugEnvelope read =
        roundTrip(new SparkplugEnvelope("spBv1.0/g/NDATA/e", null, new byte[0], "", -1, -1L));

    assertThat(read.originalKey()).isNull();
    assertThat(read.originalValue()).isEmpty();
    assertThat(
            roundTrip(new SparkplugEnvelope("t", new byte[0], null, "", -1, -1L)).originalValue())
        .isNull();
  }

  @Test
  void shouldRefuseATruncatedEnvelopeOrAnotherFormat() {
    final byte[] bytes =
        serde
            .serializer()
            .serialize("", new SparkplugEnvelope("spBv1.0/g/NDATA/e", null, new byte[3], "", 0, 0));
    final byte[] otherFormat = bytes.clone();
    otherFormat[0] = 9;

    assertThatThrownBy(
            () -> serde.deserializer().deserialize("", Arrays.copyOf(bytes, bytes.length - 2)))
        .isInstanceOf(SerializationException.class);
    assertThatThrownBy(() -> serde.deserializer().deserialize("", otherFormat))
        .isInstanceOf(SerializationException.class);
  }

  private SparkplugEnvelope roundTrip(final SparkplugEnvelope envelope) {
    return serde.deserializer().deserialize("", serde.serializer().serialize("", envelope));
  }
}
