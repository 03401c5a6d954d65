package io.bucketer.topology;

import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Every reading of every series, kept until no window that contains it can change any more, keyed
 * {@code [series][timestamp][arrival number]}. Any granularity's measurements are one range of it,
 * already in time order (ties in arrival order), so readings are stored once, however many
 * granularities hold them, and a window re-closed after a late reading is read back whole.
 */
final class ReadingLogStore {

  private final KeyValueStore<Bytes, byte[]> store;

  ReadingLogStore(final KeyValueStore<Bytes, byte[]> store) {
    this.store = store;
  }

  /**
   * Appends a reading. {@code arrival} must be unique among the series' readings with the same
   * timestamp; the count of its finest window before it was added is.
   */
  void append(final SeriesKey series, final long timestamp, final int arrival, final double value) {
    store.put(
        StoreKeys.of(series, timestamp, arrival),
        ByteBuffer.allocate(Double.BYTES).putDouble(value).array());
  }

  /** The readings of {@code series} with {@code from <= timestamp < to}, in time order. */
  List<Measurement> between(final SeriesKey series, final long from, final long to) {
    return between(store, series, from, to);
  }

  /** As {@link #between(SeriesKey, long, long)}, over any view of the log: a query reads it too. */
  static List<Measurement> between(
      final ReadOnlyKeyValueStore<Bytes, byte[]> log,
      final SeriesKey series,
      final long from,
      final long to) {
    final List<Measurement> found = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range =
        log.range(
            StoreKeys.of(series, from, Integer.MIN_VALUE),
            StoreKeys.of(series, to - 1, Integer.MAX_VALUE))) {
      while (range.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = range.next();
        found.add(
            new Measurement(
                StoreKeys.timeOfSuffixed(entry.key), ByteBuffer.wrap(entry.value).getDouble()));
      }
    }
    return found;
  }

  /** Deletes the readings of {@code series} older than {@code before}. */
  void deleteBefore(final SeriesKey series, final long before) {
    final List<Bytes> doomed = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range =
        store.range(
            StoreKeys.of(series, Long.MIN_VALUE, Integer.MIN_VALUE),
            StoreKeys.of(series, before - 1, Integer.MAX_VALUE))) {
      range.forEachRemaining(entry -> doomed.add(entry.key));
    }
    doomed.forEach(store::delete);
  }
}
