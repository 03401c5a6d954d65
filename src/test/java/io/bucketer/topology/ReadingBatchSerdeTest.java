package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReadingBatchSerdeTest {

  private static final SeriesKey SERIES = new SeriesKey("sensor-ü-0042", "temperature");

  private final ReadingBatchSerde serde = new ReadingBatchSerde();

  @Test
  void shouldRoundTripEveryReadingOfABatchInOrder() {
    final ReadingBatch batch = new ReadingBatch(1);
    batch.add(1_000, 21.5, 60);
    batch.add(900, -3.25, null);
    batch.add(2_000, Double.NaN, -90);

    final ReadingBatch read = roundTrip(batch);

    assertThat(read.size()).isEqualTo(3);
    assertThat(read.reading(0, SERIES)).isEqualTo(reading(1_000, 21.5, 60));
    assertThat(read.reading(1, SERIES)).isEqualTo(reading(900, -3.25, null));
    assertThat(read.timestamp(2)).isEqualTo(2_000);
    assertThat(read.value(2)).isNaN();
    assertThat(read.utcOffsetMinutes(2)).isEqualTo(-90);
    assertThat(batch.latestTimestamp()).isEqualTo(2_000);
  }

  @Test
  void shouldWriteABatchByteForByte() {
    final ReadingBatch batch = new ReadingBatch(2);
    batch.add(1767225600000L, 21.0, -90);
    batch.add(1767225601000L, 21.0, null);

    assertThat(serde.serializer().serialize("t", batch))
        .containsExactly(
            4, // format
            0, 0, 0, 2, // readings
            0, 0, 1, -101, 118, -38, -88, 0, // 1767225600000 ms
            64, 53, 0, 0, 0, 0, 0, 0, // 21.0
            2, // flags: an offset follows
            -1, -1, -1, -90, // -90 minutes
            0, 0, 1, -101, 118, -38, -85, -24, // 1767225601000 ms
            64, 53, 0, 0, 0, 0, 0, 0, // 21.0
            0); // no offset
  }

  @Test
  void shouldReadARecordOfOneReadingThatEarlierVersionsWroteAsABatchOfOne() {
    final Reading reading = reading(1_000, 21.5, 60);
    final byte[] formatThree = new ReadingSerde().serializer().serialize("t", reading);

    final ReadingBatch read = serde.deserializer().deserialize("t", formatThree);

    assertThat(read.size()).isEqualTo(1);
    assertThat(read.reading(0, SERIES)).isEqualTo(reading);
  }

  @Test
  void shouldRefuseABatchThatClaimsMoreReadingsThanItHolds() {
    final byte[] truncated = {4, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    assertThatThrownBy(() -> serde.deserializer().deserialize("t", truncated))
        .hasMessageContaining("claims 2 readings");
  }

  @Test
  void shouldRefuseAnOffsetThatStandsForNone() {
    final ReadingBatch batch = new ReadingBatch(1);

    assertThatThrownBy(() -> batch.add(1, 1.0, Integer.MIN_VALUE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private ReadingBatch roundTrip(final ReadingBatch readings) {
    return serde.deserializer().deserialize("t", serde.serializer().serialize("t", readings));
  }

  private static Reading reading(final long timestamp, final double value, final Integer offset) {
    return new Reading(
        SERIES.sensorId(), Instant.ofEpochMilli(timestamp), value, SERIES.metric(), offset);
  }
}
