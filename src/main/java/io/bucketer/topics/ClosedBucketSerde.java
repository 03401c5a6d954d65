package io.bucketer.topics;

import io.bucketer.avro.ClosedBucketRecord;
import io.bucketer.avro.MeasurementRecord;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
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
 * guessing. A null value (a tombstone) stays null in both directions.
 */
public final class ClosedBucketSerde implements Serde<ClosedBucket> {

  /** The first byte of every value written by this serde. */
  public static final byte FORMAT_VERSION = 1;

  private static final SpecificDatumWriter<ClosedBucketRecord> WRITER =
      new SpecificDatumWriter<>(ClosedBucketRecord.class);
  private static final SpecificDatumReader<ClosedBucketRecord> READER =
      new SpecificDatumReader<>(ClosedBucketRecord.class);

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
        new ByteArrayOutputStream(64 + 18 * bucket.measurements().size());
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

  /** Decodes a value written by {@link #encode}; rejects other versions and trailing bytes. */
  public static ClosedBucket decode(final byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != FORMAT_VERSION) {
      throw new SerializationException(
          "unsupported bucket value format "
              + (bytes.length == 0 ? "(empty value)" : "version " + bytes[0])
              + ", expected version "
              + FORMAT_VERSION);
    }
    final BinaryDecoder decoder =
        DecoderFactory.get().binaryDecoder(bytes, 1, bytes.length - 1, null);
    try {
      final ClosedBucketRecord record = READER.read(null, decoder);
      if (!decoder.isEnd()) {
        throw new SerializationException("trailing bytes after the bucket record");
      }
      return fromRecord(record);
    } catch (SerializationException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      // Avro reports a corrupt value as EOF, a bad union index or an oversized length.
      throw new SerializationException("cannot decode bucket value", e);
    }
  }

  static ClosedBucketRecord toRecord(final ClosedBucket bucket) {
    final BucketStats stats = bucket.stats();
    final List<MeasurementRecord> measurements = new ArrayList<>(bucket.measurements().size());
    for (final Measurement measurement : bucket.measurements()) {
      measurements.add(new MeasurementRecord(measurement.timestamp(), measurement.value()));
    }
    return ClosedBucketRecord.newBuilder()
        .setSensorId(bucket.series().sensorId())
        .setMetric(bucket.series().metric())
        .setGranularity(bucket.granularity().label())
        .setWindowStart(bucket.windowStart())
        .setWindowEnd(bucket.windowEnd())
        .setCount(stats.count())
        .setSum(stats.sum())
        .setMin(stats.min())
        .setMax(stats.max())
        .setFirstTimestamp(stats.firstTimestamp())
        .setLastTimestamp(stats.lastTimestamp())
        .setUtcOffsetMinutes(stats.utcOffsetMinutes())
        .setWindowCount(bucket.window().count())
        .setWindowSum(bucket.window().sum())
        .setWindowMin(bucket.window().min())
        .setWindowMax(bucket.window().max())
        .setWindowFirstTimestamp(bucket.window().firstTimestamp())
        .setWindowLastTimestamp(bucket.window().lastTimestamp())
        .setSeq(bucket.seq())
        .setBuckets(bucket.buckets())
        .setRevision(bucket.revision())
        .setMeasurements(measurements)
        .build();
  }

  static ClosedBucket fromRecord(final ClosedBucketRecord record) {
    final long size = record.getWindowEnd() - record.getWindowStart();
    // The label must name the window's size; keeping the label as written (not the parsed,
    // normalised one) makes the round trip exact.
    if (Granularity.parse(record.getGranularity()).sizeMillis() != size) {
      throw new SerializationException(
          "granularity " + record.getGranularity() + " does not match a window of " + size + " ms");
    }
    final List<Measurement> measurements = new ArrayList<>(record.getMeasurements().size());
    for (final MeasurementRecord measurement : record.getMeasurements()) {
      measurements.add(new Measurement(measurement.getTimestamp(), measurement.getValue()));
    }
    return new ClosedBucket(
        new SeriesKey(record.getSensorId(), record.getMetric()),
        new Granularity(record.getGranularity(), size),
        record.getWindowStart(),
        new BucketStats(
            record.getCount(),
            record.getSum(),
            record.getMin(),
            record.getMax(),
            record.getFirstTimestamp(),
            record.getLastTimestamp(),
            record.getUtcOffsetMinutes()),
        measurements,
        new BucketStats(
            record.getWindowCount(),
            record.getWindowSum(),
            record.getWindowMin(),
            record.getWindowMax(),
            record.getWindowFirstTimestamp(),
            record.getWindowLastTimestamp(),
            record.getUtcOffsetMinutes()),
        record.getSeq(),
        record.getBuckets(),
        record.getRevision());
  }
}
