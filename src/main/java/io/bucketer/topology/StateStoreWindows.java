package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.LiveWindows;
import io.bucketer.windows.PublishedWindows;
import io.bucketer.windows.WindowReader;
import io.bucketer.windows.WindowReadings;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The aggregator's windows, read by a query: the ones it holds in memory as it published them, and
 * its window stores through Kafka Streams' interactive queries in a running processor, or a test
 * driver's stores in tests. Reads see what the aggregator had processed at its last commit, at most
 * a commit interval ago: it publishes the windows it logs just before each commit, and keeps a
 * window in the stores before it stops publishing it.
 */
public final class StateStoreWindows implements LiveWindows {

  private final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> storesByName;
  private final Granularity finest;
  private final PublishedWindows inMemory;

  /**
   * @param storesByName the store of each name, of the partition that holds the series queried; may
   *     throw Kafka Streams' {@code InvalidStateStoreException} while the store migrates
   * @param finest the topology's finest granularity, whose windows hold the readings
   * @param inMemory the windows the partition's aggregator holds in memory, as it published them
   */
  public StateStoreWindows(
      final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> storesByName,
      final Granularity finest,
      final PublishedWindows inMemory) {
    this.storesByName = storesByName;
    this.finest = finest;
    this.inMemory = inMemory;
  }

  @Override
  public List<Window> windows(
      final SeriesKey series, final Granularity granularity, final long from, final long to) {
    return reader().range(series, granularity, from, to - 1).stream()
        .map(
            window ->
                new Window(
                    window.start(),
                    window.state().stats(),
                    !window.state().closed(),
                    window.state().quality()))
        .toList();
  }

  @Override
  public boolean holdsAny(final SeriesKey series, final Granularity granularity) {
    return reader().latestStart(series, granularity).isPresent();
  }

  @Override
  public List<Measurement> measurements(final SeriesKey series, final long from, final long to) {
    return WindowReadings.between(reader(), finest, series, from, to);
  }

  private WindowReader reader() {
    // The windows the changelogged stores kept before the window log are read too, until they
    // expire: a window is in one of the two.
    return inMemory.over(
        new StoreWindowReader(
            granularity ->
                List.of(
                    storesByName.apply(TopologyNames.windowStore(granularity)),
                    storesByName.apply(TopologyNames.legacyWindowStore(granularity))),
            List.of(
                storesByName.apply(TopologyNames.SEALED_READINGS_STORE),
                storesByName.apply(TopologyNames.LEGACY_SEALED_READINGS_STORE))));
  }
}
