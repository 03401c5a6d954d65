package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A partition's batch written as its readings come: the record value a batch gathered with each
 * reading its own part would encode to, byte for byte, and sent without being decoded.
 */
class PartitionBatchWriterTest {

  private static final SeriesKey SENSOR = new SeriesKey("sensor-ü-0042", "temperature");
  private static final SeriesKey METER = new SeriesKey("meter-7", null);

  private final PartitionBatchSerde serde = new PartitionBatchSerde();

  @Test
  void shouldWriteTheValueThatEachReadingAsAPartOfItsOwnEncodesTo() {
    final PartitionBatchWriter writer = new PartitionBatchWriter(5, 8, 0);
    final PartitionBatch gathered = new PartitionBatch(5, 8, 3);
    add(writer, gathered, METER, 2_000, Double.NaN, -90);
    add(writer, gathered, SENSOR, 1_000, 21.5, 60);
    add(writer, gathered, METER, 900, -3.25, null);

    final PartitionBatch written = writer.finish();

    assertThat(serde.serializer().serialize("t", written))
        .isEqualTo(PartitionBatchSerde.encode(gathered))
        .hasSize(writer.bytes());
  }

  @Test
  void shouldKnowWhatItsRecordNeedsWithoutDecodingItself() {
    final PartitionBatchWriter writer = new PartitionBatchWriter(3, 4, 0);
    writer.add(METER, SeriesKeySerde.toBytes(METER), 2_000, 1.0, null);
    writer.add(SENSOR, SeriesKeySerde.toBytes(SENSOR), 3_000, 2.0, null);
    writer.add(METER, SeriesKeySerde.toBytes(METER), 1_000, 3.0, null);

    final PartitionBatch written = writer.finish();

    assertThat(written.partition()).isEqualTo(3);
    assertThat(written.partitions()).isEqualTo(4);
    assertThat(written.readings()).isEqualTo(3);
    assertThat(written.firstSeries()).isEqualTo(METER);
    assertThat(written.latestTimestamp()).isEqualTo(3_000);
    assertThat(written.encodedValue()).as("still the bytes written, not decoded").isNotNull();
    assertThat(describe(written))
        .containsExactly("meter-7 [2000]", "sensor-ü-0042/temperature [3000]", "meter-7 [1000]");
  }

  @Test
  void shouldGrowPastTheRoomItStartedWithAndBeReadBackWhole() {
    final PartitionBatchWriter writer = new PartitionBatchWriter(0, 1, 0);
    final List<String> expected = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      final SeriesKey series = new SeriesKey("sensor-" + i, i % 2 == 0 ? "temperature" : null);
      writer.add(series, SeriesKeySerde.toBytes(series), i, i / 4.0, i % 3 == 0 ? i : null);
      expected.add(series + " [" + i + "]");
    }

    final byte[] value = serde.serializer().serialize("t", writer.finish());
    final PartitionBatch read = serde.deserializer().deserialize("t", value);

    assertThat(value.length).isGreaterThan(1_000 * 17);
    assertThat(read.readings()).isEqualTo(1_000);
    assertThat(describe(read)).isEqualTo(expected);
  }

  private static void add(
      final PartitionBatchWriter writer,
      final PartitionBatch gathered,
      final SeriesKey series,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes) {
    writer.add(series, SeriesKeySerde.toBytes(series), timestamp, value, utcOffsetMinutes);
    gathered.add(gathered.startSeries(series), timestamp, value, utcOffsetMinutes);
  }

  private static List<String> describe(final PartitionBatch batch) {
    final List<String> parts = new ArrayList<>();
    batch.forEach(
        (series, readings) -> {
          final List<Long> times = new ArrayList<>();
          for (int i = 0; i < readings.size(); i++) {
            times.add(readings.timestamp(i));
          }
          parts.add(series + " " + times);
        });
    return parts;
  }
}
