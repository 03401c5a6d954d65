package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

class ReadingSerdeTest {

  private final ReadingSerde serde = new ReadingSerde();

  @Test
  void shouldRoundTripEveryFieldButTheSeriesWhichTheKeyCarries() {
    final Reading reading = reading("sensor-ü-0042", "temperature", 60);

    final Reading read = roundTrip(reading);

    assertThat(read.getSensorId()).isNull();
    assertThat(read.getMetric()).isNull();
    assertThat(ReadingBatch.of(read).reading(0, new SeriesKey("sensor-ü-0042", "temperature")))
        .isEqualTo(reading);
  }

  @Test
  void shouldRoundTripAnAbsentOffset() {
    final Reading reading = reading("s", null, null);

    assertThat(ReadingBatch.of(roundTrip(reading)).reading(0, new SeriesKey("s", null)))
        .isEqualTo(reading);
  }

  @Test
  void shouldWriteTheReadingWithoutItsSeriesByteForByte() {
    final byte[] bytes = serde.serializer().serialize("t", reading("ab", "temperature", -90));

    assertThat(bytes)
        .containsExactly(
            3, // format
            0, 0, 1, -101, 118, -38, -88, 0, // 1767225600000 ms
            64, 53, 0, 0, 0, 0, 0, 0, // 21.0
            2, // flags: an offset follows
            -1, -1, -1, -90); // -90 minutes
  }

  @Test
  void shouldStillReadWhatTheLastVersionWroteWithItsSeries() {
    final byte[] written =
        new byte[] {
          2, // format
          0,
          0,
          1,
          -101,
          118,
          -38,
          -88,
          0, // 1767225600000 ms
          64,
          53,
          0,
          0,
          0,
          0,
          0,
          0, // 21.0
          3, // flags: a metric and an offset follow
          0,
          0,
          0,
          2,
          'a',
          'b', // sensor id
          0,
          0,
          0,
          1,
          'h', // metric
          -1,
          -1,
          -1,
          -90 // -90 minutes
        };

    assertThat(serde.deserializer().deserialize("t", written)).isEqualTo(reading("ab", "h", -90));
  }

  @Test
  void shouldStillReadWhatEarlierVersionsWroteInAvro() throws IOException {
    final Reading reading = reading("sensor-1", "humidity", null);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new SpecificDatumWriter<>(Reading.class).write(reading, encoder);

    assertThat(serde.deserializer().deserialize("t", out.toByteArray())).isEqualTo(reading);
  }

  @Test
  void shouldRefuseAnUnknownFormat() {
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {9, 0}))
        .hasMessageContaining("unknown reading format");
  }

  private Reading roundTrip(final Reading reading) {
    return serde.deserializer().deserialize("t", serde.serializer().serialize("t", reading));
  }

  private static Reading reading(final String sensorId, final String metric, final Integer offset) {
    return new Reading(sensorId, Instant.parse("2026-01-01T00:00:00Z"), 21.0, metric, offset);
  }
}
