package io.bucketer.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class ReadingSimulatorTest {

  private static final List<Reading> READINGS =
      List.of(reading("sensor-1"), reading("sensor-2"), reading("sensor-3"));

  private static Reading reading(final String sensor) {
    return Reading.newBuilder()
        .setSensorId(sensor)
        .setMetric("temperature")
        .setTimestamp(Instant.parse("2025-06-01T09:00:00Z"))
        .setValue(20.0)
        .setUtcOffsetMinutes(0)
        .build();
  }

  @Test
  void shouldSendEveryReadingKeyedBySensor() {
    final MockProducer<byte[], byte[]> producer =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    final ReadingSimulator gateways =
        new ReadingSimulator(
            producer, MessageEncoder.keyedBySensor(reading -> new byte[] {1}), "iot.readings");

    assertThat(gateways.send(READINGS)).isEqualTo(3);
    assertThat(gateways.acknowledged()).isEqualTo(3);
    assertThat(producer.history())
        .extracting(record -> new String(record.key()))
        .containsExactly("sensor-1", "sensor-2", "sensor-3");
  }

  @Test
  void shouldSayHowManyReadingsKafkaRefusedAndWhy() {
    final MockProducer<byte[], byte[]> refusing =
        new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer()) {
          @Override
          public synchronized void flush() {
            while (errorNext(new TimeoutException("Expiring 1 record(s) for iot.readings-0"))) {
              // every pending send fails, as when the broker never answers
            }
          }
        };
    final ReadingSimulator gateways =
        new ReadingSimulator(
            refusing, MessageEncoder.keyedBySensor(reading -> new byte[] {1}), "iot.readings");

    assertThatThrownBy(() -> gateways.send(READINGS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("3 readings were not accepted by Kafka")
        .hasMessageContaining("Expiring 1 record(s)")
        .hasCauseInstanceOf(TimeoutException.class);
    assertThat(gateways.acknowledged()).isZero();
  }
}
