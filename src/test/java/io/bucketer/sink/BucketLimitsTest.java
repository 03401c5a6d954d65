package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLimits;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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

  @Test
  void shouldEstimateNoLessThanASummaryWithItsTimeWeightedPartReallyTakes() {
    final double perSummary =
        (encodedSize(summarised(100_000)) - encodedSize(summarised(1))) / 99_999.0;

    assertThat(perSummary).isLessThanOrEqualTo(BucketLimits.MAX_BSON_BYTES_PER_SUMMARY);
  }

  /**
   * Summaries whose sketches are kilobytes each (values spread over many orders of magnitude) are
   * packed by bytes: each document stays under the byte cap, the sketch of the whole window on each
   * of them included, where packing by count alone would pass it several times over.
   */
  @Test
  void shouldKeepDocumentsOfSummariesWithLargeSketchesUnderTheByteCap() {
    final int maxBytes = 64_000;
    final int maxSummaries = BucketLimits.summariesPerBucket(maxBytes);
    final Granularity minute = Granularity.parse("1m");
    final List<WindowSummary> summaries = new ArrayList<>();
    final List<ValueSketch> sketches = new ArrayList<>();
    final SplittableRandom random = new SplittableRandom(3);
    BucketStats window = null;
    for (int i = 0; i < 60; i++) {
      final long start = i * 60_000L;
      final List<Measurement> readings = new ArrayList<>();
      for (int j = 0; j < 1_000; j++) {
        readings.add(new Measurement(start + j, Math.exp(random.nextDouble(-20, 20))));
      }
      final BucketStats stats = BucketStats.ofAll(readings, null);
      final ValueSketch sketch = ValueSketch.of(readings, Measurement::value, 0.01);
      summaries.add(
          new WindowSummary(
              minute,
              start,
              stats,
              new TimeWeighted(60_000, 1.0, 0, 0, 0, 0),
              sketch,
              new WindowQuality(1_000, 1_000)));
      sketches.add(sketch);
      window = window == null ? stats : window.merge(stats);
    }
    final ValueSketch whole = ValueSketch.mergeAll(0.01, sketches);
    assertThat(whole.encodedLength()).isGreaterThan(BucketLimits.SKETCH_BYTES_IN_OVERHEAD);
    assertThat(sketches.get(0).encodedLength()).isGreaterThan(1_000);

    final List<ClosedBucket> buckets =
        ClosedBucket.ofSummaries(
            new SeriesKey("a-rather-long-sensor-identifier-0001", "a-rather-long-metric-name"),
            Granularity.parse("1h"),
            0,
            window,
            summaries,
            0,
            maxSummaries,
            new WindowExtras(
                new TimeWeighted(3_600_000, 1.0, 0, 0, 0, 0),
                null,
                new TimeWeighting(300_000),
                whole,
                new WindowQuality(1_000, 1_000),
                1_000L));

    assertThat(maxSummaries).isGreaterThanOrEqualTo(60);
    assertThat(buckets).hasSizeGreaterThan(1);
    for (final ClosedBucket bucket : buckets) {
      assertThat(encodedSize(BucketDocuments.toDocument(bucket))).isLessThanOrEqualTo(maxBytes);
    }
  }

  /**
   * A window's sketch that fits the document overhead costs its measurements nothing; a larger one
   * takes its bytes from them, so the documents stay under the cap.
   */
  @Test
  void shouldLeaveRoomForTheWindowSketchBesideTheMeasurements() {
    final int maxBytes = 16_000;
    final int perBucket = BucketLimits.measurementsPerBucket(100_000, maxBytes);
    final SplittableRandom random = new SplittableRandom(5);
    final List<Measurement> readings = new ArrayList<>();
    for (int i = 0; i < 20 * perBucket; i++) {
      // both signs over many orders of magnitude: thousands of bins
      readings.add(
          new Measurement(i, (i % 2 == 0 ? 1 : -1) * Math.exp(random.nextDouble(-20, 20))));
    }
    final ValueSketch large = ValueSketch.of(readings, Measurement::value, 0.01);
    final ValueSketch small = ValueSketch.of(readings.subList(0, 3), Measurement::value, 0.01);
    assertThat(large.encodedLength()).isGreaterThan(2 * BucketLimits.SKETCH_BYTES_IN_OVERHEAD);

    final List<ClosedBucket> withSmall = minuteOf(readings, perBucket, small);
    final List<ClosedBucket> withLarge = minuteOf(readings, perBucket, large);

    assertThat(withSmall).hasSize(20);
    assertThat(withSmall.get(0).measurements()).hasSize(perBucket);
    assertThat(withLarge.get(0).measurements().size()).isLessThan(perBucket);
    for (final ClosedBucket bucket : withLarge) {
      assertThat(encodedSize(BucketDocuments.toDocument(bucket))).isLessThanOrEqualTo(maxBytes);
    }
  }

  private static List<ClosedBucket> minuteOf(
      final List<Measurement> readings, final int perBucket, final ValueSketch sketch) {
    return ClosedBucket.ofWindow(
        new SeriesKey("a-rather-long-sensor-identifier-0001", "a-rather-long-metric-name"),
        Granularity.parse("1h"),
        0,
        BucketStats.ofAll(readings, 60),
        readings,
        0,
        perBucket,
        new WindowExtras(
            new TimeWeighted(3_600_000, 1.0, 0, 0, 0, 0),
            new Measurement(-1, 2.0),
            new TimeWeighting(300_000),
            sketch,
            new WindowQuality(1_000, 1_000),
            1_000L));
  }

  /** A window of {@code count} minute summaries, each with its time-weighted part. */
  private static BsonDocument summarised(final int count) {
    final Granularity minute = Granularity.parse("1m");
    final List<WindowSummary> summaries = new ArrayList<>();
    BucketStats window = null;
    for (int i = 0; i < count; i++) {
      final long start = i * 60_000L;
      final BucketStats stats =
          BucketStats.ofAll(
              List.of(new Measurement(start + 1, Math.PI * i), new Measurement(start + 59_999, -i)),
              -300);
      // the most a summary holds: every count of resends and late readings written
      summaries.add(
          new WindowSummary(
              minute,
              start,
              stats,
              new TimeWeighted(59_999, Math.E * i * 1e6, 1, 1, 1, 0),
              null,
              new WindowQuality(Long.MAX_VALUE / count, Long.MAX_VALUE / count)));
      window = window == null ? stats : window.merge(stats);
    }
    return BucketDocuments.toDocument(
        new ClosedBucket(
            new SeriesKey("s", null),
            Granularity.ofMillis(count * 60_000L),
            0,
            window,
            List.of(),
            summaries,
            window,
            0,
            1,
            0,
            new WindowExtras(
                new TimeWeighted(59_999L * count, 1.5, 1, 1, 1, 0),
                null,
                new TimeWeighting(300_000),
                null,
                new WindowQuality(Long.MAX_VALUE, Long.MAX_VALUE),
                1_000L)));
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
