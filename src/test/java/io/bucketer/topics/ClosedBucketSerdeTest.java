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
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
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
  void shouldKeepEveryFieldThroughARoundTrip() {
    final ClosedBucket bucket =
        bucket("sensor-1", "temperature", MINUTE, START, -300, 20.5, -0.0, 1e-300);

    assertThat(roundTrip(bucket)).isEqualTo(bucket);
  }

  @Test
  void shouldKeepAnAbsentMetricAndOffsetAbsentThroughARoundTrip() {
    final ClosedBucket decoded =
        roundTrip(bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 3.0));

    assertThat(decoded.series().metric()).isNull();
    assertThat(decoded.stats().utcOffsetMinutes()).isNull();
    assertThat(decoded.granularity()).isEqualTo(HOUR);
  }

  @Test
  void shouldKeepTheOrderOfMeasurementsWithEqualTimestampsThroughARoundTrip() {
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
            BucketStats.ofAll(measurements, 60),
            measurements);

    assertThat(roundTrip(bucket).measurements()).containsExactlyElementsOf(measurements);
  }

  @Test
  void shouldStartTheValueWithFormatVersionFive() {
    final byte[] bytes = serde.serializer().serialize("buckets", SAMPLE);

    assertThat(bytes[0]).isEqualTo((byte) 5);
  }

  /** {@link #hourWithTimeWeightedParts} with the sketches of its minutes and of the hour. */
  private static ClosedBucket hourWithSketches() {
    final ClosedBucket hour = hourWithTimeWeightedParts();
    final List<WindowSummary> summaries = new ArrayList<>();
    final List<ValueSketch> sketches = new ArrayList<>();
    for (final WindowSummary summary : hour.summaries()) {
      final ValueSketch sketch =
          ValueSketch.of(new double[] {summary.stats().min(), summary.stats().max()}, 0.01);
      sketches.add(sketch);
      summaries.add(
          new WindowSummary(
              MINUTE, summary.start(), summary.stats(), summary.timeWeighted(), sketch));
    }
    final WindowExtras extras = hour.extras();
    return new ClosedBucket(
        hour.series(),
        HOUR,
        hour.windowStart(),
        hour.stats(),
        List.of(),
        summaries,
        hour.window(),
        0,
        1,
        3,
        new WindowExtras(
            extras.timeWeighted(),
            extras.carryIn(),
            extras.weighting(),
            ValueSketch.mergeAll(0.01, sketches)));
  }

  @Test
  void shouldKeepTheQuantileSketchesThroughARoundTrip() {
    final ClosedBucket hour = hourWithSketches();

    final ClosedBucket decoded = roundTrip(hour);

    assertThat(decoded).isEqualTo(hour);
    assertThat(decoded.extras().sketch().count()).isEqualTo(4);
    assertThat(decoded.summaries().get(1).sketch()).isEqualTo(hour.summaries().get(1).sketch());
  }

  @Test
  void shouldReadFormatThreeWithTheSketchesUnknown() {
    final ClosedBucket hour = hourWithSketches();
    final byte[] formatThree = GoldenTopicFormatsTest.formatThree(hour);

    assertThat(formatThree[0]).isEqualTo((byte) 3);
    final ClosedBucket decoded = ClosedBucketSerde.decode(formatThree);

    assertThat(decoded).isEqualTo(hourWithTimeWeightedParts());
    assertThat(decoded.extras().sketch()).isNull();
    assertThat(decoded.summaries()).extracting(WindowSummary::sketch).containsOnlyNulls();
  }

  @Test
  void shouldRefuseAValueWhoseSketchDoesNotDecode() {
    final ClosedBucket hour = hourWithSketches();
    final ClosedBucketRecord record = ClosedBucketSerde.toRecord(hour);
    record.setWindowSketch(java.nio.ByteBuffer.wrap(new byte[] {9, 9, 9}));

    assertThatThrownBy(() -> ClosedBucketSerde.decode(formatFive(record)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("malformed quantile sketch");
  }

  /**
   * {@link #hourWithSketches} with the resends and late readings of its minutes, the hour's their
   * sum, and the metric's expected interval ({@code null} for none).
   */
  private static ClosedBucket hourWithQuality(final Long expectedIntervalMillis) {
    final ClosedBucket hour = hourWithSketches();
    final List<WindowSummary> summaries = new ArrayList<>();
    WindowQuality whole = WindowQuality.NONE;
    for (final WindowSummary summary : hour.summaries()) {
      // the first minute had nothing resent or late; the second, 2 resends and 1 late reading
      final WindowQuality quality =
          summaries.isEmpty() ? WindowQuality.NONE : new WindowQuality(2, 1);
      whole = whole.plus(quality);
      summaries.add(
          new WindowSummary(
              MINUTE,
              summary.start(),
              summary.stats(),
              summary.timeWeighted(),
              summary.sketch(),
              quality));
    }
    final WindowExtras extras = hour.extras();
    return new ClosedBucket(
        hour.series(),
        HOUR,
        hour.windowStart(),
        hour.stats(),
        List.of(),
        summaries,
        hour.window(),
        0,
        1,
        3,
        new WindowExtras(
            extras.timeWeighted(),
            extras.carryIn(),
            extras.weighting(),
            extras.sketch(),
            whole,
            expectedIntervalMillis));
  }

  @Test
  void shouldKeepTheQualityAndTheExpectedIntervalThroughARoundTrip() {
    final ClosedBucket hour = hourWithQuality(5_000L);

    final ClosedBucket decoded = roundTrip(hour);

    assertThat(decoded).isEqualTo(hour);
    assertThat(decoded.extras().quality()).isEqualTo(new WindowQuality(2, 1));
    assertThat(decoded.extras().expectedIntervalMillis()).isEqualTo(5_000L);
    assertThat(decoded.summaries())
        .extracting(WindowSummary::quality)
        .containsExactly(WindowQuality.NONE, new WindowQuality(2, 1));
  }

  @Test
  void shouldKeepAKnownQualityWithoutAnExpectedInterval() {
    final ClosedBucket hour = hourWithQuality(null);

    final ClosedBucket decoded = roundTrip(hour);

    assertThat(decoded).isEqualTo(hour);
    assertThat(decoded.extras().expectedIntervalMillis()).isNull();
    // nothing resent or late is known, not unknown
    assertThat(decoded.summaries().get(0).quality()).isEqualTo(WindowQuality.NONE);
  }

  @Test
  void shouldKeepAnUnknownQualityUnknownThroughARoundTrip() {
    final ClosedBucket hour = hourWithSketches();
    final ClosedBucket minute =
        bucket("sensor-1", "temperature", MINUTE, START, 60, 1.0)
            .withExtras(new WindowExtras(null, null, null, null, null, 60_000L));

    final ClosedBucket decodedHour = roundTrip(hour);
    final ClosedBucket decodedMinute = roundTrip(minute);

    assertThat(decodedHour).isEqualTo(hour);
    assertThat(decodedHour.extras().quality()).isNull();
    assertThat(decodedHour.summaries()).extracting(WindowSummary::quality).containsOnlyNulls();
    // an expected interval alone is kept: extras that hold nothing else are not dropped
    assertThat(decodedMinute).isEqualTo(minute);
    assertThat(decodedMinute.extras().expectedIntervalMillis()).isEqualTo(60_000L);
    assertThat(decodedMinute.extras().quality()).isNull();
  }

  @Test
  void shouldReadFormatFourWithTheQualityUnknownAndNoExpectedInterval() {
    final byte[] formatFour = GoldenTopicFormatsTest.formatFour(hourWithQuality(5_000L));

    assertThat(formatFour[0]).isEqualTo((byte) 4);
    final ClosedBucket decoded = ClosedBucketSerde.decode(formatFour);

    assertThat(decoded).isEqualTo(hourWithSketches());
    assertThat(decoded.extras().quality()).isNull();
    assertThat(decoded.extras().expectedIntervalMillis()).isNull();
    assertThat(decoded.summaries()).extracting(WindowSummary::quality).containsOnlyNulls();
  }

  @Test
  void shouldRefuseHalfACountOfQualityANegativeCountOrInterval() {
    final ClosedBucketRecord windowHalf = ClosedBucketSerde.toRecord(hourWithQuality(5_000L));
    windowHalf.setLateReadings(null);
    final ClosedBucketRecord summaryHalf = ClosedBucketSerde.toRecord(hourWithQuality(5_000L));
    summaryHalf.getSummaries().get(1).setResends(null);
    final ClosedBucketRecord negative = ClosedBucketSerde.toRecord(hourWithQuality(5_000L));
    negative.setResends(-1L);
    final ClosedBucketRecord noInterval = ClosedBucketSerde.toRecord(hourWithQuality(5_000L));
    noInterval.setExpectedIntervalMs(0L);

    for (final ClosedBucketRecord record : List.of(windowHalf, summaryHalf, negative)) {
      assertThatThrownBy(() -> ClosedBucketSerde.decode(formatFive(record)))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("malformed counts");
    }
    final ClosedBucketRecord noLearnedInterval = ClosedBucketSerde.toRecord(hourWithQuality(null));
    noLearnedInterval.setLearnedIntervalMs(0L);
    final ClosedBucketRecord bothIntervals = ClosedBucketSerde.toRecord(hourWithQuality(5_000L));
    bothIntervals.setLearnedIntervalMs(5_000L);
    for (final ClosedBucketRecord record : List.of(noInterval, noLearnedInterval, bothIntervals)) {
      assertThatThrownBy(() -> ClosedBucketSerde.decode(formatFive(record)))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("expected interval");
    }
  }

  /** An hour whose window and minutes carry their time-weighted parts, a reading carried in. */
  private static ClosedBucket hourWithTimeWeightedParts() {
    final ClosedBucket hour = hourOfTwoMinutes();
    final List<WindowSummary> summaries = new ArrayList<>();
    for (final WindowSummary summary : hour.summaries()) {
      summaries.add(
          new WindowSummary(
              MINUTE,
              summary.start(),
              summary.stats(),
              new TimeWeighted(59_000, 59_000 * 1.5 + summaries.size(), 1, 1_000, 1_000, 0)));
    }
    return new ClosedBucket(
        hour.series(),
        HOUR,
        hour.windowStart(),
        hour.stats(),
        List.of(),
        summaries,
        hour.window(),
        0,
        1,
        3,
        new WindowExtras(
            new TimeWeighted(420_000, 420_000 * 0.7, 3, 3_000_000, 1_000, 3_000_000),
            new Measurement(HOUR.windowStart(START) - 12_345, -0.25),
            new TimeWeighting(300_000)));
  }

  @Test
  void shouldKeepTheTimeWeightedPartsAndTheReadingCarriedInThroughARoundTrip() {
    final ClosedBucket hour = hourWithTimeWeightedParts();

    final ClosedBucket decoded = roundTrip(hour);

    assertThat(decoded).isEqualTo(hour);
    assertThat(decoded.extras().carryIn()).isNotNull();
    assertThat(decoded.summaries().get(1).timeWeighted().integral()).isEqualTo(59_000 * 1.5 + 1);
  }

  @Test
  void shouldKeepALinearWeightingAndRefuseAnInterpolationItDoesNotKnow() {
    final ClosedBucket hour = hourWithTimeWeightedParts();
    final ClosedBucket linear =
        hour.withExtras(
            new WindowExtras(
                hour.extras().timeWeighted(),
                hour.extras().carryIn(),
                new TimeWeighting(300_000, Interpolation.LINEAR),
                null));
    final ClosedBucketRecord record = ClosedBucketSerde.toRecord(linear);
    record.setInterpolation("spline");

    assertThat(roundTrip(linear).extras().weighting().interpolation())
        .isEqualTo(Interpolation.LINEAR);
    assertThat(record.getMaxGapMs()).isEqualTo(300_000L);
    assertThatThrownBy(() -> ClosedBucketSerde.decode(formatFive(record)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("unknown interpolation");
  }

  /** The bytes of {@code record} as format 5 writes them. */
  private static byte[] formatFive(final ClosedBucketRecord record) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(5);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      new SpecificDatumWriter<>(ClosedBucketRecord.class).write(record, encoder);
      encoder.flush();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Test
  void shouldReadFormatTwoWithTheTimeWeightedPartsUnknown() throws Exception {
    final ClosedBucket hour = hourWithTimeWeightedParts();
    final ByteArrayOutputStream formatTwo = new ByteArrayOutputStream();
    formatTwo.write(2);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(formatTwo, null);
    new SpecificDatumWriter<Object>(io.bucketer.avro.v2.ClosedBucketRecord.getClassSchema())
        .write(ClosedBucketSerde.toRecord(hour), encoder);
    encoder.flush();

    final ClosedBucket decoded = ClosedBucketSerde.decode(formatTwo.toByteArray());

    assertThat(decoded).isEqualTo(hourOfTwoMinutes());
    assertThat(decoded.extras()).isNull();
    assertThat(decoded.summaries()).extracting(WindowSummary::timeWeighted).containsOnlyNulls();
  }

  private static ClosedBucket hourOfTwoMinutes() {
    final ClosedBucket first = bucket("s", "m", MINUTE, START, 120, 1.0, 4.0);
    final ClosedBucket second = bucket("s", "m", MINUTE, START + 60_000, 120, -2.5);
    final List<WindowSummary> summaries =
        List.of(
            new WindowSummary(MINUTE, START, first.stats()),
            new WindowSummary(MINUTE, START + 60_000, second.stats()));
    return ClosedBucket.ofSummaries(
            new SeriesKey("s", "m"),
            HOUR,
            HOUR.windowStart(START),
            first.stats().merge(second.stats()),
            summaries,
            3,
            100)
        .get(0);
  }

  @Test
  void shouldKeepTheSummariesOfFinerWindowsThroughARoundTrip() {
    final ClosedBucket hour = hourOfTwoMinutes();

    final ClosedBucket decoded = roundTrip(hour);

    assertThat(decoded).isEqualTo(hour);
    assertThat(decoded.summaryGranularity()).contains(MINUTE);
    assertThat(decoded.summaries().get(0).stats().last())
        .isEqualTo(new Measurement(START + 1_000, 4.0));
  }

  @Test
  void shouldWriteTheBytesAvrosSchemaWalkingWriterWrites() throws Exception {
    final ClosedBucket minute =
        bucket("sensor-1", "temperature", MINUTE, START, -300, 20.5, -0.0, 1e-300);
    final ClosedBucket withoutMetricOrOffset =
        bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 3.0);

    for (final ClosedBucket bucket :
        List.of(
            minute,
            withoutMetricOrOffset,
            hourOfTwoMinutes(),
            hourWithTimeWeightedParts(),
            hourWithQuality(5_000L))) {
      final ByteArrayOutputStream expected = new ByteArrayOutputStream();
      expected.write(ClosedBucketSerde.FORMAT_VERSION);
      final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(expected, null);
      new SpecificDatumWriter<>(ClosedBucketRecord.class)
          .write(ClosedBucketSerde.toRecord(bucket), encoder);
      encoder.flush();

      assertThat(ClosedBucketSerde.encode(bucket)).isEqualTo(expected.toByteArray());
    }
  }

  @Test
  void shouldReadFormatOneWithoutTheNewFields() throws Exception {
    final io.bucketer.avro.v1.ClosedBucketRecord old =
        io.bucketer.avro.v1.ClosedBucketRecord.newBuilder()
            .setSensorId("s")
            .setMetric(null)
            .setGranularity("1m")
            .setWindowStart(START)
            .setWindowEnd(START + 60_000)
            .setCount(2)
            .setSum(3.0)
            .setMin(1.0)
            .setMax(2.0)
            .setFirstTimestamp(START)
            .setLastTimestamp(START + 1)
            .setUtcOffsetMinutes(60)
            .setWindowCount(2)
            .setWindowSum(3.0)
            .setWindowMin(1.0)
            .setWindowMax(2.0)
            .setWindowFirstTimestamp(START)
            .setWindowLastTimestamp(START + 1)
            .setSeq(0)
            .setBuckets(1)
            .setRevision(4)
            .setMeasurements(
                List.of(
                    new io.bucketer.avro.v1.MeasurementRecord(START, 1.0),
                    new io.bucketer.avro.v1.MeasurementRecord(START + 1, 2.0)))
            .build();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new SpecificDatumWriter<>(io.bucketer.avro.v1.ClosedBucketRecord.class).write(old, encoder);
    encoder.flush();

    final ClosedBucket decoded = ClosedBucketSerde.decode(out.toByteArray());

    assertThat(decoded.revision()).isEqualTo(4);
    assertThat(decoded.measurements())
        .containsExactly(new Measurement(START, 1.0), new Measurement(START + 1, 2.0));
    assertThat(decoded.stats().count()).isEqualTo(2);
    assertThat(decoded.stats().average()).isEqualTo(1.5);
    assertThat(decoded.stats().utcOffsetMinutes()).isEqualTo(60);
    assertThat(decoded.stats().hasSpread()).isFalse();
    assertThat(decoded.stats().last().value()).isNaN();
  }

  @Test
  void shouldKeepATombstoneNull() {
    assertThat(serde.serializer().serialize("buckets", null)).isNull();
    assertThat(serde.deserializer().deserialize("buckets", null)).isNull();
  }

  @Test
  void shouldRejectAnUnknownFormatVersion() {
    final byte[] bytes = ClosedBucketSerde.encode(SAMPLE);
    bytes[0] = 0;

    assertThatThrownBy(() -> ClosedBucketSerde.decode(bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("version 0");
  }

  @Test
  void shouldRejectTrailingBytesAndTruncatedValues() {
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
  void shouldRejectAGranularityThatDoesNotMatchTheWindow() {
    final ClosedBucketRecord record = ClosedBucketSerde.toRecord(SAMPLE);
    record.setGranularity("1h");

    assertThatThrownBy(() -> ClosedBucketSerde.fromRecord(record))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("1h");
  }

  @Test
  void shouldKeepTheGranularityLabelAsWritten() {
    final Granularity sixtySeconds = new Granularity("60s", 60_000);
    final ClosedBucket bucket = bucket("s", "m", sixtySeconds, START, null, 1.0);

    assertThat(roundTrip(bucket).granularity()).isEqualTo(sixtySeconds);
  }
}
