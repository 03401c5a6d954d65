package io.bucketer.topology;

import io.bucketer.avro.BucketStateRecord;
import io.bucketer.buckets.BucketStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The bytes of a window's state in the window stores (schemas/bucket-state.avsc), shared by the
 * aggregator that writes them and the interactive queries that read them. Not thread-safe: one per
 * user.
 */
final class WindowStateCodec {

  private final SpecificDatumWriter<BucketStateRecord> writer =
      new SpecificDatumWriter<>(BucketStateRecord.class);
  private final SpecificDatumReader<BucketStateRecord> reader =
      new SpecificDatumReader<>(BucketStateRecord.class);

  byte[] encode(final WindowState state) {
    final BucketStats stats = state.stats();
    final BucketStateRecord record =
        new BucketStateRecord(
            stats.count(),
            stats.sum(),
            stats.min(),
            stats.max(),
            stats.firstTimestamp(),
            stats.lastTimestamp(),
            stats.utcOffsetMinutes(),
            state.closed(),
            state.revision());
    final ByteArrayOutputStream out = new ByteArrayOutputStream(56);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      writer.write(record, encoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  WindowState decode(final byte[] value) {
    try {
      final BucketStateRecord record =
          reader.read(null, DecoderFactory.get().binaryDecoder(value, null));
      return new WindowState(
          new BucketStats(
              record.getCount(),
              record.getSum(),
              record.getMin(),
              record.getMax(),
              record.getFirstTimestamp(),
              record.getLastTimestamp(),
              record.getUtcOffsetMinutes()),
          record.getClosed(),
          record.getRevision());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
