package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLimits;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Test;

/** The bucket caps hold for real encoded documents, not only for the estimate behind them. */
class BucketLimitsTest {

  @Test
  void shouldKeepEveryDocumentUnderTheByteCap() {
    final int maxBytes = 128_000;
    final int perBucket = BucketLimits.measurementsPerBucket(100_000, maxBytes);
    final List<Measurement> measurements = new ArrayList<>();
    for (int i = 0; i < perBucket; i++) {
      measurements.add(new Measurement(1_700_000_000_000L + i, Math.PI * i));
    }
    final ClosedBucket bucket =
        new ClosedBucket(
            new SeriesKey("a-rather-long-sensor-identifier-0001", "a-rather-long-metric-name"),
            Granularity.parse("1h"),
            1_699_999_200_000L,
            BucketStats.ofAll(measurements, 60),
            measurements);

    assertThat(encodedSize(BucketDocuments.toDocument(bucket))).isLessThanOrEqualTo(maxBytes);
    assertThat(BucketLimits.measurementsPerBucket(1000, maxBytes)).isEqualTo(1000);
  }

  @Test
  void shouldEstimateNoLessThanAMeasurementReallyTakes() {
    final BsonDocument one = document(1);
    final BsonDocument many = document(200_000);
    final double perMeasurement = (encodedSize(many) - encodedSize(one)) / 199_999.0;

    assertThat(perMeasurement).isLessThanOrEqualTo(BucketLimits.MAX_BSON_BYTES_PER_MEASUREMENT);
  }

  private static BsonDocument document(final int count) {
    final List<Measurement> measurements = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      measurements.add(new Measurement(i, i));
    }
    return BucketDocuments.toDocument(
        new ClosedBucket(
            new SeriesKey("s", null),
            Granularity.parse("1d"),
            0,
            BucketStats.ofAll(measurements, null),
            measurements));
  }

  private static int encodedSize(final BsonDocument document) {
    try (BasicOutputBuffer buffer = new BasicOutputBuffer()) {
      new BsonDocumentCodec()
          .encode(
              new org.bson.BsonBinaryWriter(buffer), document, EncoderContext.builder().build());
      return ByteBuffer.wrap(buffer.toByteArray()).limit();
    }
  }
}
