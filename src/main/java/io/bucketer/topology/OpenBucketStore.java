package io.bucketer.topology;

import io.bucketer.avro.OpenBucketStatsRecord;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The open buckets of one granularity, in two key-value stores.
 *
 * <p>The stats store holds each bucket's running sums under {@code [series][window start]}; the
 * measurements store holds each reading under {@code [series][window start][index]}. Adding a
 * reading is one small read-modify-write plus one append, whatever the bucket's size, and a series'
 * open buckets are one contiguous range of keys, oldest first, so closing a series' windows reads
 * only what it closes.
 */
final class OpenBucketStore {

  /** A bucket still open in the store. */
  record OpenBucket(SeriesKey series, long windowStart, BucketStats stats) {}

  private static final int MEASUREMENT_BYTES = 16;

  private final Granularity granularity;
  private final KeyValueStore<Bytes, byte[]> stats;
  private final KeyValueStore<Bytes, byte[]> measurements;
  private final SpecificDatumWriter<OpenBucketStatsRecord> statsWriter =
      new SpecificDatumWriter<>(OpenBucketStatsRecord.class);
  private final SpecificDatumReader<OpenBucketStatsRecord> statsReader =
      new SpecificDatumReader<>(OpenBucketStatsRecord.class);

  OpenBucketStore(
      final Granularity granularity,
      final KeyValueStore<Bytes, byte[]> stats,
      final KeyValueStore<Bytes, byte[]> measurements) {
    this.granularity = granularity;
    this.stats = stats;
    this.measurements = measurements;
  }

  Granularity granularity() {
    return granularity;
  }

  /** Adds one reading to the bucket of {@code series} that holds its timestamp. */
  void add(final SeriesKey series, final Measurement measurement, final Integer utcOffsetMinutes) {
    final Bytes bucketKey = bucketKey(series, granularity.windowStart(measurement.timestamp()));
    final BucketStats before = readStats(bucketKey);
    final BucketStats after =
        before == null
            ? BucketStats.of(measurement, utcOffsetMinutes)
            : before.add(measurement, utcOffsetMinutes);
    measurements.put(measurementKey(bucketKey, after.count() - 1), encode(measurement));
    stats.put(bucketKey, encode(after));
  }

  /** Adds a closed finer bucket to the coarser bucket of this granularity that contains it. */
  void rollUp(final ClosedBucket finer) {
    final Bytes bucketKey = bucketKey(finer.series(), granularity.windowStart(finer.windowStart()));
    final BucketStats before = readStats(bucketKey);
    final long firstIndex = before == null ? 0 : before.count();
    final List<Measurement> added = finer.measurements();
    for (int i = 0; i < added.size(); i++) {
      measurements.put(measurementKey(bucketKey, firstIndex + i), encode(added.get(i)));
    }
    final BucketStats after = before == null ? finer.stats() : before.merge(finer.stats());
    stats.put(bucketKey, encode(after));
  }

  /** The open buckets of {@code series} whose window starts at or before {@code lastStart}. */
  List<OpenBucket> openBuckets(final SeriesKey series, final long lastStart) {
    final List<OpenBucket> found = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range =
        stats.range(bucketKey(series, Long.MIN_VALUE), bucketKey(series, lastStart))) {
      while (range.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = range.next();
        found.add(new OpenBucket(series, windowStartOf(entry.key), decodeStats(entry.value)));
      }
    }
    return found;
  }

  /** Every series with at least one open bucket; read once when a task starts. */
  Set<SeriesKey> seriesWithOpenBuckets() {
    final Set<SeriesKey> found = new HashSet<>();
    try (KeyValueIterator<Bytes, byte[]> all = stats.all()) {
      while (all.hasNext()) {
        found.add(SeriesKeySerde.read(ByteBuffer.wrap(all.next().key.get())));
      }
    }
    return found;
  }

  /** Removes an open bucket from the store and returns it complete, measurements sorted by time. */
  ClosedBucket close(final OpenBucket open) {
    final Bytes bucketKey = bucketKey(open.series(), open.windowStart());
    final List<Measurement> bucketMeasurements = new ArrayList<>((int) open.stats().count());
    final List<Bytes> keys = new ArrayList<>((int) open.stats().count());
    try (KeyValueIterator<Bytes, byte[]> range =
        measurements.range(
            measurementKey(bucketKey, 0), measurementKey(bucketKey, open.stats().count() - 1))) {
      while (range.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = range.next();
        keys.add(entry.key);
        bucketMeasurements.add(decodeMeasurement(entry.value));
      }
    }
    keys.forEach(measurements::delete);
    stats.delete(bucketKey);
    // List.sort is stable: equal timestamps keep their arrival order.
    bucketMeasurements.sort(Comparator.comparingLong(Measurement::timestamp));
    return new ClosedBucket(
        open.series(), granularity, open.windowStart(), open.stats(), bucketMeasurements);
  }

  private BucketStats readStats(final Bytes bucketKey) {
    final byte[] value = stats.get(bucketKey);
    return value == null ? null : decodeStats(value);
  }

  /**
   * {@code [series][window start with its sign bit flipped]}: flipping the sign bit makes the
   * unsigned byte order of keys equal the numeric order of window starts, negatives included; the
   * series encoding is length-prefixed, so one series' keys never interleave with another's.
   */
  static Bytes bucketKey(final SeriesKey series, final long windowStart) {
    final int seriesLength = SeriesKeySerde.encodedLength(series);
    final ByteBuffer buffer = ByteBuffer.allocate(seriesLength + 8);
    SeriesKeySerde.write(series, buffer);
    buffer.putLong(windowStart ^ Long.MIN_VALUE);
    return Bytes.wrap(buffer.array());
  }

  private static long windowStartOf(final Bytes bucketKey) {
    final byte[] key = bucketKey.get();
    return ByteBuffer.wrap(key, key.length - 8, 8).getLong() ^ Long.MIN_VALUE;
  }

  private static Bytes measurementKey(final Bytes bucketKey, final long index) {
    final byte[] prefix = bucketKey.get();
    return Bytes.wrap(
        ByteBuffer.allocate(prefix.length + 4).put(prefix).putInt((int) index).array());
  }

  private static byte[] encode(final Measurement measurement) {
    return ByteBuffer.allocate(MEASUREMENT_BYTES)
        .putLong(measurement.timestamp())
        .putDouble(measurement.value())
        .array();
  }

  private static Measurement decodeMeasurement(final byte[] value) {
    final ByteBuffer buffer = ByteBuffer.wrap(value);
    return new Measurement(buffer.getLong(), buffer.getDouble());
  }

  private byte[] encode(final BucketStats bucketStats) {
    final OpenBucketStatsRecord record =
        new OpenBucketStatsRecord(
            bucketStats.count(),
            bucketStats.sum(),
            bucketStats.min(),
            bucketStats.max(),
            bucketStats.firstTimestamp(),
            bucketStats.lastTimestamp(),
            bucketStats.utcOffsetMinutes());
    final ByteArrayOutputStream out = new ByteArrayOutputStream(48);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      statsWriter.write(record, encoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private BucketStats decodeStats(final byte[] value) {
    try {
      final OpenBucketStatsRecord record =
          statsReader.read(null, DecoderFactory.get().binaryDecoder(value, null));
      return new BucketStats(
          record.getCount(),
          record.getSum(),
          record.getMin(),
          record.getMax(),
          record.getFirstTimestamp(),
          record.getLastTimestamp(),
          record.getUtcOffsetMinutes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
