package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import org.apache.kafka.common.utils.Bytes;

/**
 * State-store keys: {@code [series][time with its sign bit flipped][optional suffix]}. The series
 * encoding is length-prefixed, so one series' keys never interleave with another's; flipping the
 * sign bit makes the unsigned byte order of keys the numeric order of times, negatives included.
 */
final class StoreKeys {

  private StoreKeys() {}

  static Bytes of(final SeriesKey series, final long time) {
    return of(SeriesKeySerde.toBytes(series), time);
  }

  /** As {@link #of(SeriesKey, long)}, for a series already encoded by {@link SeriesKeySerde}. */
  static Bytes of(final byte[] series, final long time) {
    final ByteBuffer buffer = ByteBuffer.allocate(series.length + 8);
    buffer.put(series);
    buffer.putLong(time ^ Long.MIN_VALUE);
    return Bytes.wrap(buffer.array());
  }

  static Bytes of(final SeriesKey series, final long time, final int suffix) {
    return of(SeriesKeySerde.toBytes(series), time, suffix);
  }

  /**
   * As {@link #of(SeriesKey, long, int)}, for a series already encoded by {@link SeriesKeySerde}.
   */
  static Bytes of(final byte[] encoded, final long time, final int suffix) {
    final ByteBuffer buffer = ByteBuffer.allocate(encoded.length + 12);
    buffer.put(encoded);
    buffer.putLong(time ^ Long.MIN_VALUE);
    buffer.putInt(suffix ^ Integer.MIN_VALUE);
    return Bytes.wrap(buffer.array());
  }

  static SeriesKey seriesOf(final Bytes key) {
    return SeriesKeySerde.read(ByteBuffer.wrap(key.get()));
  }

  /** The time of a key made by {@link #of(SeriesKey, long)}. */
  static long timeOf(final Bytes key) {
    final byte[] bytes = key.get();
    return ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong() ^ Long.MIN_VALUE;
  }

  /** The time of a key made by {@link #of(SeriesKey, long, int)}. */
  static long timeOfSuffixed(final Bytes key) {
    final byte[] bytes = key.get();
    return ByteBuffer.wrap(bytes, bytes.length - 12, 8).getLong() ^ Long.MIN_VALUE;
  }

  /** The suffix of a key made by {@link #of(SeriesKey, long, int)}. */
  static int suffixOf(final Bytes key) {
    final byte[] bytes = key.get();
    return ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt() ^ Integer.MIN_VALUE;
  }
}
