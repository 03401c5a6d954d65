package io.bucketer.topics;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.ClosedBucketRecord;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class ClosedBucketSerdeTest {

  private static final ClosedBucket SAMPLE =
      bucket("sensor-1", "temperature", MINUTE, START, 60, 1.0);

  private final ClosedBucketSerde serde = new ClosedBucketSerde();

  private ClosedBucket roundTrip(final ClosedBucket bucket) {
    final byte[] bytes = serde.serializer().serialize("buckets", bucket);
    return serde.deserializer().deserialize("buckets", bytes);
  }

  @Test
  void roundTripKeepsEveryField() {
    final ClosedBucket bucket =
        bucket("sensor-1", "temperature", MINUTE, START, -300, 20.5, -0.0, 1e-300);

    assertThat(roundTrip(bucket)).isEqualTo(bucket);
  }

  @Test
  void roundTripKeepsAbsentMetricAndOffsetAbsent() {
    final ClosedBucket decoded =
        roundTrip(bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 3.0));

    assertThat(decoded.series().metric()).isNull();
    assertThat(decoded.stats().utcOffsetMinutes()).isNull();
    assertThat(decoded.granularity()).isEqualTo(HOUR);
  }

  @Test
  void roundTripKeepsMeasurementOrderOfEqualTimestamps() {
    final List<Measurement> measurements =
        List.of(
            new Measurement(START + 5, 2.0),
            new Measurement(START + 5, 1.0),
            new Measurement(START + 1, 3.0));
    final ClosedBucket bucket =
        new ClosedBucket(
            new SeriesKey("s", "m"),
            MINUTE,
            START,
            new BucketStats(3, 6.0, 1.0, 3.0, START + 1, START + 5, 60),
            measurements);

    assertThat(roundTrip(bucket).measurements()).containsExactlyElementsOf(measurements);
  }

  @Test
  void valueStartsWithFormatVersionOne() {
    final byte[] bytes = serde.serializer().serialize("buckets", SAMPLE);

    assertThat(bytes[0]).isEqualTo((byte) 1);
  }

  @Test
  void tombstoneStaysNull() {
    assertThat(serde.serializer().serialize("buckets", null)).isNull();
    assertThat(serde.deserializer().deserialize("buckets", null)).isNull();
  }

  @Test
  void rejectsUnknownFormatVersion() {
    final byte[] bytes = ClosedBucketSerde.encode(SAMPLE);
    bytes[0] = 0;

    assertThatThrownBy(() -> ClosedBucketSerde.decode(bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("version 0");
  }

  @Test
  void rejectsTrailingBytesAndTruncatedValues() {
    final byte[] bytes = ClosedBucketSerde.encode(SAMPLE);
    final byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    final byte[] shorter = Arrays.copyOf(bytes, bytes.length - 1);

    assertThatThrownBy(() -> ClosedBucketSerde.decode(longer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("trailing");
    assertThatThrownBy(() -> ClosedBucketSerde.decode(shorter))
        .isInstanceOf(SerializationException.class);
    assertThatThrownBy(() -> ClosedBucketSerde.decode(new byte[0]))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void rejectsGranularityThatDoesNotMatchTheWindow() {
    final ClosedBucketRecord record = ClosedBucketSerde.toRecord(SAMPLE);
    record.setGranularity("1h");

    assertThatThrownBy(() -> ClosedBucketSerde.fromRecord(record))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("1h");
  }

  @Test
  void keepsTheGranularityLabelAsWritten() {
    final Granularity sixtySeconds = new Granularity("60s", 60_000);
    final ClosedBucket bucket = bucket("s", "m", sixtySeconds, START, null, 1.0);

    assertThat(roundTrip(bucket).granularity()).isEqualTo(sixtySeconds);
  }
}
