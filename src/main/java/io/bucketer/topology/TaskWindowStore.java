package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import io.bucketer.windows.WindowStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The window lifecycle's store over one task's Kafka Streams stores, counting every operation in
 * {@code bucketer.state.operations}: what each reading costs in the state is a figure the benchmark
 * prints.
 */
final class TaskWindowStore extends StoreWindowReader implements WindowStore {

  private final Map<Granularity, KeyValueStore<Bytes, byte[]>> windows;
  private final KeyValueStore<Bytes, byte[]> sealedRuns;
  private final KeyValueStore<Bytes, Long> clocks;
  private final BucketerMetrics metrics;

  /** The series the lifecycle last asked about, and its encoding: asked again and again. */
  private SeriesKey lastSeries;

  private byte[] lastSeriesBytes;

  TaskWindowStore(
      final Map<Granularity, KeyValueStore<Bytes, byte[]>> windows,
      final KeyValueStore<Bytes, byte[]> sealedRuns,
      final KeyValueStore<Bytes, Long> clocks,
      final BucketerMetrics metrics) {
    super(windows::get, sealedRuns);
    this.windows = windows;
    this.sealedRuns = sealedRuns;
    this.clocks = clocks;
    this.metrics = metrics;
  }

  @Override
  public WindowState get(final SeriesKey series, final Granularity granularity, final long start) {
    metrics.stateOperation(StateOperation.GET);
    return super.get(series, granularity, start);
  }

  @Override
  public List<Window> range(
      final SeriesKey series, final Granularity granularity, final long first, final long last) {
    metrics.stateOperation(StateOperation.RANGE);
    return super.range(series, granularity, first, last);
  }

  @Override
  public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
    metrics.stateOperation(StateOperation.RANGE);
    return super.latestStart(series, granularity);
  }

  @Override
  public List<SealedRun> sealedRuns(
      final SeriesKey series, final long firstStart, final long lastStart) {
    metrics.stateOperation(StateOperation.RANGE);
    return super.sealedRuns(series, firstStart, lastStart);
  }

  @Override
  public void put(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    metrics.stateOperation(StateOperation.PUT);
    windows.get(granularity).put(key(series, start), WindowStateCodec.encode(state));
  }

  @Override
  Bytes key(final SeriesKey series, final long start) {
    if (series != lastSeries) {
      lastSeries = series;
      lastSeriesBytes = SeriesKeySerde.toBytes(series);
    }
    return StoreKeys.of(lastSeriesBytes, start);
  }

  @Override
  public void deleteBetween(
      final SeriesKey series, final Granularity granularity, final long from, final long upTo) {
    if (from <= upTo) {
      deleteRange(windows.get(granularity), StoreKeys.of(series, from), StoreKeys.of(series, upTo));
    }
  }

  @Override
  public void putSealedRun(
      final SeriesKey series, final long windowStart, final int number, final ReadingRun run) {
    metrics.stateOperation(StateOperation.PUT);
    sealedRuns.put(StoreKeys.of(series, windowStart, number), WindowStateCodec.encodeRun(run));
  }

  @Override
  public void deleteSealedRunsBetween(final SeriesKey series, final long from, final long upTo) {
    if (from <= upTo) {
      deleteRange(
          sealedRuns,
          StoreKeys.of(series, from, Integer.MIN_VALUE),
          StoreKeys.of(series, upTo, Integer.MAX_VALUE));
    }
  }

  @Override
  public OptionalLong storedClock(final SeriesKey series) {
    metrics.stateOperation(StateOperation.GET);
    final Long stored = clocks.get(Bytes.wrap(SeriesKeySerde.toBytes(series)));
    return stored == null ? OptionalLong.empty() : OptionalLong.of(stored);
  }

  @Override
  public void storeClock(final SeriesKey series, final long clock) {
    metrics.stateOperation(StateOperation.PUT);
    clocks.put(Bytes.wrap(SeriesKeySerde.toBytes(series)), clock);
  }

  @Override
  public void forEach(final Granularity granularity, final WindowVisitor visitor) {
    try (KeyValueIterator<Bytes, byte[]> all = windows.get(granularity).all()) {
      while (all.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = all.next();
        visitor.visit(
            StoreKeys.seriesOf(entry.key),
            StoreKeys.timeOf(entry.key),
            WindowStateCodec.decode(entry.value));
      }
    }
  }

  private void deleteRange(
      final KeyValueStore<Bytes, byte[]> store, final Bytes from, final Bytes to) {
    metrics.stateOperation(StateOperation.RANGE);
    final List<Bytes> doomed = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> range = store.range(from, to)) {
      range.forEachRemaining(entry -> doomed.add(entry.key));
    }
    for (final Bytes key : doomed) {
      metrics.stateOperation(StateOperation.DELETE);
      store.delete(key);
    }
  }
}
