package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionBatchSerdeTest {

  private static final SeriesKey SENSOR = new SeriesKey("sensor-ü-0042", "temperature");
  private static final SeriesKey METER = new SeriesKey("meter-7", null);

  private final PartitionBatchSerde serde = new PartitionBatchSerde();

  @Test
  void shouldRoundTripEverySeriesAndReadingOfABatchInOrder() {
    final PartitionBatch batch = new PartitionBatch(5, 8, 2);
    final ReadingBatch meter = batch.startSeries(METER);
    batch.add(meter, 2_000, Double.NaN, -90);
    batch.add(batch.startSeries(SENSOR), 1_000, 21.5, 60);
    batch.add(meter, 900, -3.25, null);

    final PartitionBatch read =
        serde.deserializer().deserialize("t", serde.serializer().serialize("t", batch));

    assertThat(read.partition()).isEqualTo(5);
    assertThat(read.readings()).isEqualTo(3);
    assertThat(read.latestTimestamp()).isEqualTo(2_000);
    assertThat(read.firstSeries()).isEqualTo(METER);
    final List<String> series = new ArrayList<>();
    read.forEach(
        (key, readings) -> {
          final List<String> values = new ArrayList<>();
          for (int i = 0; i < readings.size(); i++) {
            values.add(
                readings.timestamp(i)
                    + "="
                    + readings.value(i)
                    + "@"
                    + readings.utcOffsetMinutes(i));
          }
          series.add(key + " " + values);
        });
    assertThat(series)
        .containsExactly(
            "meter-7 [2000=NaN@-90, 900=-3.25@null]", "sensor-ü-0042/temperature [1000=21.5@60]");
  }

  @Test
  void shouldWriteABatchByteForByte() {
    final PartitionBatch batch = new PartitionBatch(2, 8, 1);
    batch.add(batch.startSeries(new SeriesKey("s", null)), 1767225600000L, 21.0, -90);

    assertThat(serde.serializer().serialize("t", batch))
        .containsExactly(
            5, // format
            0, 0, 0, 2, // partition
            0, 0, 0, 1, // series
            0, 1, 's', 0, 0, 0, // the series: "s", no metric
            0, 0, 0, 1, // readings
            0, 0, 1, -101, 118, -38, -88, 0, // 1767225600000 ms
            64, 53, 0, 0, 0, 0, 0, 0, // 21.0
            2, // flags: an offset follows
            -1, -1, -1, -90); // -90 minutes
  }

  @Test
  void shouldReadARecordOfOneSeriesThatEarlierVersionsWroteWithTheSeriesInTheKey() {
    final ReadingBatch one = new ReadingBatch(1);
    one.add(1_000, 21.5, 60);

    final PartitionBatch read =
        serde.deserializer().deserialize("t", ReadingBatchSerde.encode(one));

    assertThat(read.partition()).isEqualTo(-1);
    assertThat(read.seriesCount()).isEqualTo(1);
    read.forEach(
        (key, readings) -> {
          assertThat(key).as("the record's key names the series").isNull();
          assertThat(readings.timestamp(0)).isEqualTo(1_000);
        });
  }

  @Test
  void shouldRefuseABatchThatClaimsMoreThanItHolds() {
    final byte[] bytes = {5, 0, 0, 0, 1, 0x7f, 0, 0, 0};

    assertThatThrownBy(() -> serde.deserializer().deserialize("t", bytes))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("claims");
  }
}
