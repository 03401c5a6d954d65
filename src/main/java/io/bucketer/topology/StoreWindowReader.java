package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.windows.WindowReader;
import io.bucketer.windows.WindowState;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Windows as the task's key-value stores hold them: one store per granularity keyed {@code
 * [series][window start]}, so a series' windows are one contiguous range of keys in start order;
 * and one store of the runs sealed off finest windows, keyed {@code [series][window start][run
 * number]}. Read by the aggregator, and by queries through Kafka Streams' interactive queries.
 */
class StoreWindowReader implements WindowReader {

  private final Function<Granularity, ? extends ReadOnlyKeyValueStore<Bytes, byte[]>> windows;
  private final ReadOnlyKeyValueStore<Bytes, byte[]> sealedRuns;

  StoreWindowReader(
      final Function<Granularity, ? extends ReadOnlyKeyValueStore<Bytes, byte[]>> windows,
      final ReadOnlyKeyValueStore<Bytes, byte[]> sealedRuns) {
    this.windows = windows;
    this.sealedRuns = sealedRuns;
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    final byte[] value = windows.apply(granularity).get(key(series, start));
    return value == null ? null : WindowStateCodec.decode(value);
  }

  /** The key of a window; the aggregator's store reuses the encoding of the series it works on. */
  Bytes key(final SeriesKey series, final long start) {
    return StoreKeys.of(series, start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    final List<Window> found = new ArrayList<>();
    if (first > last) {
      return found;
    }
    try (KeyValueIterator<Bytes, byte[]> range =
        windows.apply(granularity).range(StoreKeys.of(series, first), StoreKeys.of(series, last))) {
      while (range.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = range.next();
        found.add(new Window(StoreKeys.timeOf(entry.key), WindowStateCodec.decode(entry.value)));
      }
    }
    return found;
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    try (KeyValueIterator<Bytes, byte[]> range =
        windows
            .apply(granularity)
            .reverseRange(
                StoreKeys.of(series, Long.MIN_VALUE), StoreKeys.of(series, Long.MAX_VALUE))) {
      return range.hasNext()
          ? OptionalLong.of(StoreKeys.timeOf(range.next().key))
          : OptionalLong.empty();
    }
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    final List<SealedRun> found = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range =
        sealedRuns.range(
            StoreKeys.of(series, firstStart, Integer.MIN_VALUE),
            StoreKeys.of(series, lastStart, Integer.MAX_VALUE))) {
      while (range.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = range.next();
        found.add(
            new SealedRun(
                StoreKeys.timeOfSuffixed(entry.key),
                StoreKeys.suffixOf(entry.key),
                WindowStateCodec.decodeRun(entry.value)));
      }
    }
    return found;
  }
}
