package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.windows.WindowReader;
import io.bucketer.windows.WindowState;
import java.util.ArrayList;
import java.util.Comparator;
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
 *
 * <p>Each of them may be read in tiers, newest first: after an upgrade from the changelogged window
 * stores, their windows are read until they expire ({@link TopologyNames#legacyWindowStore}), and a
 * window is in one tier only.
 */
class StoreWindowReader implements WindowReader {

  private final Function<Granularity, List<? extends ReadOnlyKeyValueStore<Bytes, byte[]>>> windows;
  private final List<? extends ReadOnlyKeyValueStore<Bytes, byte[]>> sealedRuns;

  StoreWindowReader(
      final Function<Granularity, List<? extends ReadOnlyKeyValueStore<Bytes, byte[]>>> windows,
      final List<? extends ReadOnlyKeyValueStore<Bytes, byte[]>> sealedRuns) {
    this.windows = windows;
    this.sealedRuns = sealedRuns;
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    final Bytes key = key(series, start);
    for (final ReadOnlyKeyValueStore<Bytes, byte[]> tier : windows.apply(granularity)) {
      final byte[] value = tier.get(key);
      if (value != null) {
        return WindowStateCodec.decode(value);
      }
    }
    return null;
  }

  /** The key of a window; the aggregator's store reuses the encoding of the series it works on. */
  Bytes key(final SeriesKey series, final long start) {
    return StoreKeys.of(series, start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    if (first > last) {
      return new ArrayList<>();
    }
    final List<? extends ReadOnlyKeyValueStore<Bytes, byte[]>> tiers = windows.apply(granularity);
    final List<Window> found = new ArrayList<>();
    for (int tier = tiers.size() - 1; tier >= 0; tier--) {
      try (KeyValueIterator<Bytes, byte[]> range =
          tiers.get(tier).range(StoreKeys.of(series, first), StoreKeys.of(series, last))) {
        while (range.hasNext()) {
          final KeyValue<Bytes, byte[]> entry = range.next();
          found.add(new Window(StoreKeys.timeOf(entry.key), WindowStateCodec.decode(entry.value)));
        }
      }
    }
    if (tiers.size() > 1) {
      found.sort(Comparator.comparingLong(Window::start));
    }
    return found;
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    OptionalLong latest = OptionalLong.empty();
    for (final ReadOnlyKeyValueStore<Bytes, byte[]> tier : windows.apply(granularity)) {
      try (KeyValueIterator<Bytes, byte[]> range =
          tier.reverseRange(
              StoreKeys.of(series, Long.MIN_VALUE), StoreKeys.of(series, Long.MAX_VALUE))) {
        if (range.hasNext()) {
          final long start = StoreKeys.timeOf(range.next().key);
          if (latest.isEmpty() || start > latest.getAsLong()) {
            latest = OptionalLong.of(start);
          }
        }
      }
    }
    return latest;
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    final List<SealedRun> found = new ArrayList<>();
    for (final ReadOnlyKeyValueStore<Bytes, byte[]> tier : sealedRuns) {
      try (KeyValueIterator<Bytes, byte[]> range =
          tier.range(
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
    }
    if (sealedRuns.size() > 1) {
      found.sort(
          Comparator.comparingLong(SealedRun::windowStart).thenComparingInt(SealedRun::number));
    }
    return found;
  }
}
