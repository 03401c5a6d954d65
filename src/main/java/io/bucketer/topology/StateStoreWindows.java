package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.LiveWindows;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The aggregator's window stores and reading log, read by a query: through Kafka Streams'
 * interactive queries in a running processor, or a test driver's stores in tests. Reads see what
 * the aggregator has processed, committed or not yet.
 */
public final class StateStoreWindows implements LiveWindows {

  private final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> storesByName;

  /**
   * @param storesByName the store of each name, of the partition that holds the series queried; may
   *     throw Kafka Streams' {@code InvalidStateStoreException} while the store migrates
   */
  public StateStoreWindows(
      final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> storesByName) {
    this.storesByName = storesByName;
  }

  @Override
  public List<Window> windows(
      final SeriesKey series, final Granularity granularity, final long from, final long to) {
    if (from >= to) {
      return List.of();
    }
    return WindowStateStore.from(
            storesByName.apply(TopologyNames.windowStore(granularity)),
            new WindowStateCodec(),
            series,
            from,
            to - 1)
        .stream()
        .map(window -> new Window(window.start(), window.state().stats(), !window.state().closed()))
        .toList();
  }

  @Override
  public boolean holdsAny(final SeriesKey series, final Granularity granularity) {
    try (KeyValueIterator<Bytes, byte[]> range =
        storesByName
            .apply(TopologyNames.windowStore(granularity))
            .range(StoreKeys.of(series, Long.MIN_VALUE), StoreKeys.of(series, Long.MAX_VALUE))) {
      return range.hasNext();
    }
  }

  @Override
  public List<Measurement> measurements(final SeriesKey series, final long from, final long to) {
    return from >= to
        ? List.of()
        : ReadingLogStore.between(
            storesByName.apply(TopologyNames.READINGS_STORE), series, from, to);
  }
}
