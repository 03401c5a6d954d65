package io.bucketer.topics;

import io.bucketer.avro.ClosedBucketRecord;
import io.bucketer.avro.MeasurementRecord;
import io.bucketer.avro.StatsRecord;
import io.bucketer.avro.SummaryRecord;
import io.bucketer.avro.TimeWeightRecord;
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
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Value format of the compacted buckets topic: one format-version byte ({@value #FORMAT_VERSION})
 * followed by the Avro binary encoding of {@link ClosedBucketRecord}. The version byte lets a later
 * format (or a schema-registry framing, whose magic byte is 0) be told apart from this one without
 * guessing. Formats 4 (before the windows' resends, late readings and expected interval), 3 (before
 * the quantile sketches), 2 (before the time-weighted parts) and 1, which an older version may have
 * left in the topic, are still read ({@link ClosedBucketFormatV1}). A null value (a tombstone)
 * stays null in both directions.
 */
public final class ClosedBucketSerde implements Serde<ClosedBucket> {

  /** The first byte of every value written by this serde. */
  public static final byte FORMAT_VERSION = 5;

  /** Format 4, before the windows' quality and expected interval: read only. */
  static final byte FORMAT_VERSION_4 = 4;

  /** Format 3, before the quantile sketches: read only. */
  static final byte FORMAT_VERSION_3 = 3;

  /** Format 2, before the time-weighted parts: read only. */
  static final byte FORMAT_VERSION_2 = 2;

  /**
   * Avro's generated encoders: each record writes its own fields in schema order, instead of the
   * datum writer walking the schema for every field. The bytes are the same (tested); a minute of
   * 60 readings encodes in 4.4 µs instead of 5.8 (JMH). Avro leaves them off unless asked.
   */
  private static final SpecificData GENERATED_CODERS = new SpecificData();

  static {
    GENERATED_CODERS.setCustomCoders(true);
  }

  private static final SpecificDatumWriter<ClosedBucketRecord> WRITER =
      new SpecificDatumWriter<>(ClosedBucketRecord.getClassSchema(), GENERATED_CODERS);
  // Reading stays with Avro's fast reader, which its generated decoders did not beat.
  private static final SpecificDatumReader<ClosedBucketRecord> READER =
      new SpecificDatumReader<>(ClosedBucketRecord.class);

  /**
   * Formats 4, 3 and 2 read into today's record by Avro's schema resolution (writer schema v4, v3
   * or v2, reader schema v5): the fields added since are nullable and read as null, unknown.
   */
  private static final SpecificDatumReader<ClosedBucketRecord> FORMAT_4_READER =
      new SpecificDatumReader<>(
          io.bucketer.avro.v4.ClosedBucketRecord.getClassSchema(),
          ClosedBucketRecord.getClassSchema());

  private static final SpecificDatumReader<ClosedBucketRecord> FORMAT_3_READER =
      new SpecificDatumReader<>(
          io.bucketer.avro.v3.ClosedBucketRecord.getClassSchema(),
          ClosedBucketRecord.getClassSchema());

  private static final SpecificDatumReader<ClosedBucketRecord> FORMAT_2_READER =
      new SpecificDatumReader<>(
          io.bucketer.avro.v2.ClosedBucketRecord.getClassSchema(),
          ClosedBucketRecord.getClassSchema());

  @Override
  public Serializer<ClosedBucket> serializer() {
    return (topic, bucket) -> bucket == null ? null : encode(bucket);
  }

  @Override
  public Deserializer<ClosedBucket> deserializer() {
    return (topic, bytes) -> bytes == null ? null : decode(bytes);
  }

  /** Encodes one bucket as version byte plus Avro binary. */
  public static byte[] encode(final ClosedBucket bucket) {
    final ByteArrayOutputStream out =
        new ByteArrayOutputStream(
            220 + 18 * bucket.measurements().size() + 130 * bucket.summaries().size());
    out.write(FORMAT_VERSION);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      WRITER.write(toRecord(bucket), encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException("cannot encode bucket " + BucketKey.of(bucket), e);
    }
    return out.toByteArray();
  }

  /**
   * Decodes a value written by {@link #encode}, or by formats 4, 3, 2 and 1; rejects trailing
   * bytes.
   */
  public static ClosedBucket decode(final byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == ClosedBucketFormatV1.FORMAT_VERSION) {
      return ClosedBucketFormatV1.decode(bytes);
    }
    if (bytes.length > 0 && bytes[0] == FORMAT_VERSION_4) {
      return fromRecord(readWhole(FORMAT_4_READER, bytes));
    }
    if (bytes.length > 0 && bytes[0] == FORMAT_VERSION_3) {
      return fromRecord(readWhole(FORMAT_3_READER, bytes));
    }
    if (bytes.length > 0 && bytes[0] == FORMAT_VERSION_2) {
      return fromRecord(readWhole(FORMAT_2_READER, bytes));
    }
    if (bytes.length == 0 || bytes[0] != FORMAT_VERSION) {
      throw new SerializationException(
          "unsupported bucket value format "
              + (bytes.length == 0 ? "(empty value)" : "version " + bytes[0])
              + ", expected version "
              + FORMAT_VERSION);
    }
    return fromRecord(readWhole(READER, bytes));
  }

  /** The Avro record after the version byte, which must take every remaining byte. */
  static <T> T readWhole(final SpecificDatumReader<T> reader, final byte[] bytes) {
    final BinaryDecoder decoder =
        DecoderFactory.get().binaryDecoder(bytes, 1, bytes.length - 1, null);
    try {
      final T record = reader.read(null, decoder);
      if (!decoder.isEnd()) {
        throw new SerializationException("trailing bytes after the bucket record");
      }
      return record;
    } catch (IOException | RuntimeException e) {
      if (e instanceof SerializationException serialization) {
        throw serialization;
      }
      // Avro reports a corrupt value as EOF, a bad union index or an oversized length.
      throw new SerializationException("cannot decode bucket value", e);
    }
  }

  static ClosedBucketRecord toRecord(final ClosedBucket bucket) {
    final List<MeasurementRecord> measurements = new ArrayList<>(bucket.measurements().size());
    for (final Measurement measurement : bucket.measurements()) {
      measurements.add(new MeasurementRecord(measurement.timestamp(), measurement.value()));
    }
    final List<SummaryRecord> summaries = new ArrayList<>(bucket.summaries().size());
    for (final WindowSummary summary : bucket.summaries()) {
      final WindowQuality quality = summary.quality();
      summaries.add(
          new SummaryRecord(
              summary.start(),
              toRecord(summary.stats()),
              toRecord(summary.timeWeighted()),
              bytesOf(summary.sketch()),
              quality == null ? null : quality.resends(),
              quality == null ? null : quality.lateReadings()));
    }
    final WindowExtras extras = bucket.extras();
    final Measurement carryIn = extras == null ? null : extras.carryIn();
    final TimeWeighting weighting = extras == null ? null : extras.weighting();
    final WindowQuality quality = extras == null ? null : extras.quality();
    return ClosedBucketRecord.newBuilder()
        .setSensorId(bucket.series().sensorId())
        .setMetric(bucket.series().metric())
        .setGranularity(bucket.granularity().label())
        .setWindowStart(bucket.windowStart())
        .setWindowEnd(bucket.windowEnd())
        .setUtcOffsetMinutes(bucket.stats().utcOffsetMinutes())
        .setStats(toRecord(bucket.stats()))
        .setWindow(toRecord(bucket.window()))
        .setSeq(bucket.seq())
        .setBuckets(bucket.buckets())
        .setRevision(bucket.revision())
        .setMeasurements(measurements)
        .setSummaryGranularity(bucket.summaryGranularity().map(Granularity::label).orElse(null))
        .setSummaries(summaries)
        .setWindowTimeWeight(extras == null ? null : toRecord(extras.timeWeighted()))
        .setCarryIn(
            carryIn == null ? null : new MeasurementRecord(carryIn.timestamp(), carryIn.value()))
        .setMaxGapMs(weighting == null ? null : weighting.maxGapMillis())
        .setInterpolation(weighting == null ? null : weighting.interpolation().label())
        .setWindowSketch(extras == null ? null : bytesOf(extras.sketch()))
        .setResends(quality == null ? null : quality.resends())
        .setLateReadings(quality == null ? null : quality.lateReadings())
        .setExpectedIntervalMs(extras == null ? null : extras.expectedIntervalMillis())
        .setLearnedIntervalMs(extras == null ? null : extras.learnedIntervalMillis())
        .build();
  }

  private static ByteBuffer bytesOf(final ValueSketch sketch) {
    return sketch == null ? null : ByteBuffer.wrap(sketch.encode());
  }

  /**
   * The sketch of {@code bytes}; a value whose sketch does not decode is refused as a whole, as any
   * other malformed field is.
   */
  private static ValueSketch sketchOf(final ByteBuffer bytes) {
    if (bytes == null) {
      return null;
    }
    final byte[] encoded = new byte[bytes.remaining()];
    bytes.duplicate().get(encoded);
    try {
      return ValueSketch.decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new SerializationException("a bucket value with a malformed quantile sketch", e);
    }
  }

  private static TimeWeightRecord toRecord(final TimeWeighted part) {
    return part == null
        ? null
        : new TimeWeightRecord(
            part.coveredMillis(),
            part.integral(),
            part.gaps(),
            part.longestGapMillis(),
            part.gapAtStartMillis(),
            part.gapAtEndMillis());
  }

  private static TimeWeighted fromRecord(final TimeWeightRecord part) {
    return part == null
        ? null
        : new TimeWeighted(
            part.getCoveredMs(),
            part.getIntegral(),
            part.getGaps(),
            part.getLongestGapMs(),
            part.getGapAtStartMs(),
            part.getGapAtEndMs());
  }

  /** The window's extras; null for a record without any (format 2). */
  private static WindowExtras extrasOf(final ClosedBucketRecord record) {
    final ValueSketch sketch = sketchOf(record.getWindowSketch());
    final WindowQuality quality = qualityOf(record.getResends(), record.getLateReadings());
    final Long expectedInterval = record.getExpectedIntervalMs();
    final Long learnedInterval = record.getLearnedIntervalMs();
    if (expectedInterval != null && expectedInterval <= 0
        || learnedInterval != null && learnedInterval <= 0) {
      throw new SerializationException(
          "an expected interval, configured or learned, that is not positive");
    }
    if (expectedInterval != null && learnedInterval != null) {
      throw new SerializationException("an expected interval both configured and learned");
    }
    if (record.getWindowTimeWeight() == null) {
      return sketch == null
              && quality == null
              && expectedInterval == null
              && learnedInterval == null
          ? null
          : new WindowExtras(null, null, null, sketch, quality, expectedInterval, learnedInterval);
    }
    final Interpolation interpolation = interpolationOf(record.getInterpolation());
    if (record.getMaxGapMs() == null || interpolation == null) {
      throw new SerializationException(
          "time-weighted part without its max gap, or of an unknown interpolation");
    }
    final MeasurementRecord carryIn = record.getCarryIn();
    return new WindowExtras(
        fromRecord(record.getWindowTimeWeight()),
        carryIn == null ? null : new Measurement(carryIn.getTimestamp(), carryIn.getValue()),
        new TimeWeighting(record.getMaxGapMs(), interpolation),
        sketch,
        quality,
        expectedInterval,
        learnedInterval);
  }

  /**
   * The quality the two counts say: null when both are null (unknown: written before they were
   * counted); a value with one of them only, or a negative one, is refused as malformed.
   */
  private static WindowQuality qualityOf(final Long resends, final Long lateReadings) {
    if (resends == null && lateReadings == null) {
      return null;
    }
    if (resends == null || lateReadings == null || resends < 0 || lateReadings < 0) {
      throw new SerializationException(
          "a bucket value with malformed counts of resends and late readings");
    }
    return new WindowQuality(resends, lateReadings);
  }

  /** The interpolation a record names, or null for none or one this version does not know. */
  private static Interpolation interpolationOf(final CharSequence label) {
    if (label == null) {
      return null;
    }
    try {
      return Interpolation.ofLabel(label.toString());
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }

  private static StatsRecord toRecord(final BucketStats stats) {
    return new StatsRecord(
        stats.count(),
        stats.sum(),
        stats.min(),
        stats.max(),
        stats.first().timestamp(),
        stats.first().value(),
        stats.last().timestamp(),
        stats.last().value(),
        stats.shift(),
        stats.shiftedMean(),
        stats.m2());
  }

  static ClosedBucket fromRecord(final ClosedBucketRecord record) {
    final Granularity granularity =
        granularity(record.getGranularity(), record.getWindowEnd() - record.getWindowStart());
    final Integer offset = record.getUtcOffsetMinutes();
    final List<Measurement> measurements = new ArrayList<>(record.getMeasurements().size());
    for (final MeasurementRecord measurement : record.getMeasurements()) {
      measurements.add(new Measurement(measurement.getTimestamp(), measurement.getValue()));
    }
    final List<WindowSummary> summaries = new ArrayList<>(record.getSummaries().size());
    if (!record.getSummaries().isEmpty()) {
      final String label = record.getSummaryGranularity();
      if (label == null) {
        throw new SerializationException("summaries without a summary granularity");
      }
      final Granularity finer = granularity(label, Granularity.parse(label).sizeMillis());
      for (final SummaryRecord summary : record.getSummaries()) {
        summaries.add(
            new WindowSummary(
                finer,
                summary.getStart(),
                fromRecord(summary.getStats(), offset),
                fromRecord(summary.getTimeWeight()),
                sketchOf(summary.getSketch()),
                qualityOf(summary.getResends(), summary.getLateReadings())));
      }
    }
    return new ClosedBucket(
        new SeriesKey(record.getSensorId(), record.getMetric()),
        granularity,
        record.getWindowStart(),
        fromRecord(record.getStats(), offset),
        measurements,
        summaries,
        fromRecord(record.getWindow(), offset),
        record.getSeq(),
        record.getBuckets(),
        record.getRevision(),
        extrasOf(record));
  }

  private static BucketStats fromRecord(final StatsRecord stats, final Integer utcOffsetMinutes) {
    return new BucketStats(
        stats.getCount(),
        stats.getSum(),
        stats.getMin(),
        stats.getMax(),
        new Measurement(stats.getFirstTimestamp(), stats.getFirstValue()),
        new Measurement(stats.getLastTimestamp(), stats.getLastValue()),
        stats.getShift(),
        stats.getShiftedMean(),
        stats.getM2(),
        utcOffsetMinutes);
  }

  /**
   * The granularity a label names, which must be a window of {@code size}; keeping the label as
   * written (not the parsed, normalised one) makes the round trip exact.
   */
  static Granularity granularity(final String label, final long size) {
    if (Granularity.parse(label).sizeMillis() != size) {
      throw new SerializationException(
          "granularity " + label + " does not match a window of " + size + " ms");
    }
    return new Granularity(label, size);
  }
}
