package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The windows of one granularity, open and recently closed, keyed {@code [series][window start]}: a
 * series' windows are one contiguous range of keys in start order, so closing and expiring read
 * only the keys they act on.
 */
final class WindowStateStore {

  /** A window start and its state. */
  record Window(long start, WindowState state) {}

  private final KeyValueStore<Bytes, byte[]> store;
  private final WindowStateCodec codec = new WindowStateCodec();

  WindowStateStore(final KeyValueStore<Bytes, byte[]> store) {
    this.store = store;
  }

  WindowState get(final SeriesKey series, final long start) {
    final byte[] value = store.get(StoreKeys.of(series, start));
    return value == null ? null : codec.decode(value);
  }

  void put(final SeriesKey series, final long start, final WindowState state) {
    store.put(StoreKeys.of(series, start), codec.encode(state));
  }

  /** The windows of {@code series} with {@code after < start <= upTo}, in start order. */
  List<Window> between(final SeriesKey series, final long after, final long upTo) {
    return after >= upTo ? new ArrayList<>() : from(store, codec, series, after + 1, upTo);
  }

  /**
   * The windows of {@code series} with {@code first <= start <= last}, in start order, over any
   * view of a window store: a query reads them too.
   */
  static List<Window> from(
      final ReadOnlyKeyValueStore<Bytes, byte[]> store,
      final WindowStateCodec codec,
      final SeriesKey series,
      final long first,
      final long last) {
    final List<Window> found = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range =
        store.range(StoreKeys.of(series, first), StoreKeys.of(series, last))) {
      while (range.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = range.next();
        found.add(new Window(StoreKeys.timeOf(entry.key), codec.decode(entry.value)));
      }
    }
    return found;
  }

  /** Deletes the windows of {@code series} that start at or before {@code upTo}. */
  void deleteUpTo(final SeriesKey series, final long upTo) {
    final List<Bytes> doomed = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range =
        store.range(StoreKeys.of(series, Long.MIN_VALUE), StoreKeys.of(series, upTo))) {
      range.forEachRemaining(entry -> doomed.add(entry.key));
    }
    doomed.forEach(store::delete);
  }

  /** Start of the latest window of {@code series}, if it has any. */
  OptionalLong latestStart(final SeriesKey series) {
    try (KeyValueIterator<Bytes, byte[]> range =
        store.reverseRange(
            StoreKeys.of(series, Long.MIN_VALUE), StoreKeys.of(series, Long.MAX_VALUE))) {
      return range.hasNext()
          ? OptionalLong.of(StoreKeys.timeOf(range.next().key))
          : OptionalLong.empty();
    }
  }

  /**
   * Adds every series that has a window here to {@code into} and returns how many of the windows
   * are open; read once when a task starts.
   */
  long collectSeries(final Set<SeriesKey> into) {
    long open = 0;
    try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
      while (all.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = all.next();
        into.add(StoreKeys.seriesOf(entry.key));
        if (!codec.decode(entry.value).closed()) {
          open++;
        }
      }
    }
    return open;
  }
}
