package io.bucketer.topology;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.windows.WindowState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the window lifecycle does to an open window for each reading: read the window's serialised
 * state (its sums and, at the finest granularity, its readings so far) from its store, add the
 * measurement, write it back. Readings feed the finest granularity only (a coarser one is rolled up
 * once per closed finer window), so with the default {@code 1m,1h} this happens once per reading.
 * The stores are Kafka Streams' in-memory ones, sorted maps, so what is measured is mostly the
 * store keys and the state's binary form; RocksDB, which production uses, adds its own cost on top.
 * Plain {@link BucketStats#add} shows what the arithmetic alone costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 1)
public class WindowUpdateBenchmark {

  private static final SeriesKey SERIES = new SeriesKey("sensor-0042", "temperature");
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Integer UTC_OFFSET_MINUTES = 60;

  /** 2025-06-01T10:00:00Z, the start of a minute. */
  private static final long WINDOW_START = 1_748_772_000_000L;

  /** Where the updated window goes, so that the half-full one read each time stays as it is. */
  private static final long NEXT_WINDOW_START = WINDOW_START + 60_000;

  // Fields, not constants: the JIT could fold arithmetic on constants away.
  private WindowState halfFullWindow;
  private Measurement nextReading;
  private TaskWindowStore windows;

  @Setup
  public void openTheStore() {
    halfFullWindow = halfFullWindow();
    nextReading = new Measurement(WINDOW_START + 30_000, 21.37);
    windows =
        TaskWindowStore.open(
            new TaskWindowStore.Stores(
                Map.of(MINUTE, inMemory("windows-1m")),
                inMemory("sealed"),
                Map.of(MINUTE, inMemory("legacy-windows-1m")),
                inMemory("legacy-sealed"),
                null,
                inMemory("window-log"),
                inMemory("window-log-census")),
            List.of(MINUTE),
            new BucketerMetrics(new SimpleMeterRegistry()),
            "0_0",
            0);
    windows.put(SERIES, MINUTE, WINDOW_START, halfFullWindow);
  }

  private static <V> KeyValueStore<Bytes, V> inMemory(final String name) {
    final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore(name).get();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    @SuppressWarnings("unchecked")
    final KeyValueStore<Bytes, V> typed = (KeyValueStore<Bytes, V>) (Object) store;
    return typed;
  }

  /** The key of the window in its store, built by every read and every write. */
  @Benchmark
  public Bytes buildStoreKey() {
    return StoreKeys.of(SERIES, WINDOW_START);
  }

  /** Store key, lookup and decoding of the state. */
  @Benchmark
  public WindowState readWindow() {
    return windows.get(SERIES, MINUTE, WINDOW_START);
  }

  /**
   * Store key, encoding of the state, the store's put, and the window log's entry for it written as
   * at a commit: the live regime, where a commit holds one reading of a window.
   */
  @Benchmark
  public void writeWindow() {
    windows.put(SERIES, MINUTE, NEXT_WINDOW_START, halfFullWindow);
    windows.flushLog(0);
  }

  /** The whole per-reading update of the finest window, thirty readings in. */
  @Benchmark
  public WindowState addReadingToStoredWindow() {
    final WindowState updated =
        windows.get(SERIES, MINUTE, WINDOW_START).withReading(nextReading, UTC_OFFSET_MINUTES);
    windows.put(SERIES, MINUTE, NEXT_WINDOW_START, updated);
    windows.flushLog(0);
    return updated;
  }

  /** The arithmetic alone, without the store. */
  @Benchmark
  public BucketStats addReadingToStats() {
    return halfFullWindow.stats().add(nextReading, UTC_OFFSET_MINUTES);
  }

  /** A minute of 1 Hz readings half-way through: thirty readings so far. */
  private static WindowState halfFullWindow() {
    WindowState window =
        WindowState.openWith(new Measurement(WINDOW_START, 21.0), UTC_OFFSET_MINUTES);
    for (int second = 1; second < 30; second++) {
      window =
          window.withReading(
              new Measurement(WINDOW_START + second * 1_000L, 21.0), UTC_OFFSET_MINUTES);
    }
    return window;
  }
}
