package io.bucketer.topics;

import io.bucketer.avro.v1.ClosedBucketRecord;
import io.bucketer.avro.v1.MeasurementRecord;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Format 1 of the buckets topic ({@code schemas/closed-bucket-v1.avsc}), written before the first
 * and last values, the spread and summaries were kept. Read only: an upgrade may find such values
 * in the topic, not yet written to MongoDB. Their buckets hold measurements and lack the new fields
 * ({@link BucketStats#withoutSpread}).
 */
final class ClosedBucketFormatV1 {

  static final byte FORMAT_VERSION = 1;

  private static final SpecificDatumReader<ClosedBucketRecord> READER =
      new SpecificDatumReader<>(ClosedBucketRecord.class);

  private ClosedBucketFormatV1() {}

  static ClosedBucket decode(final byte[] bytes) {
    final ClosedBucketRecord record = ClosedBucketSerde.readWhole(READER, bytes);
    final List<Measurement> measurements = new ArrayList<>(record.getMeasurements().size());
    for (final MeasurementRecord measurement : record.getMeasurements()) {
      measurements.add(new Measurement(measurement.getTimestamp(), measurement.getValue()));
    }
    return new ClosedBucket(
        new SeriesKey(record.getSensorId(), record.getMetric()),
        ClosedBucketSerde.granularity(
            record.getGranularity(), record.getWindowEnd() - record.getWindowStart()),
        record.getWindowStart(),
        BucketStats.withoutSpread(
            record.getCount(),
            record.getSum(),
            record.getMin(),
            record.getMax(),
            record.getFirstTimestamp(),
            record.getLastTimestamp(),
            record.getUtcOffsetMinutes()),
        measurements,
        List.of(),
        BucketStats.withoutSpread(
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
