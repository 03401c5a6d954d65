package io.bucketer.topology;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@link BucketAggregator#process} does to an open window for each reading: read the window's
 * serialised state from its store, add the measurement, write it back. Readings feed the finest
 * granularity only (a coarser one is rolled up once per closed finer window), so with the default
 * {@code 1m,1h} this happens once per reading. The store is Kafka Streams' in-memory one, a sorted
 * map, so what is measured is mostly the store keys and the state's Avro form; RocksDB, which
 * production uses, adds its own cost on top. Plain {@link BucketStats#add} shows what the
 * arithmetic alone costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 1)
public class WindowUpdateBenchmark {

  private static final SeriesKey SERIES = new SeriesKey("sensor-0042", "temperature");
  private static final Integer UTC_OFFSET_MINUTES = 60;

  /** 2025-06-01T10:00:00Z, the start of a minute. */
  private static final long WINDOW_START = 1_748_772_000_000L;

  // Fields, not constants: the JIT could fold arithmetic on constants away.
  private WindowState halfFullWindow;
  private Measurement nextReading;
  private WindowStateStore windows;

  @Setup
  public void openTheStore() {
    halfFullWindow = halfFullWindow();
    nextReading = new Measurement(WINDOW_START + 30_000, 21.37);
    final KeyValueStore<Bytes, byte[]> store = Stores.inMemoryKeyValueStore("windows-1m").get();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    windows = new WindowStateStore(store);
  }

  /**
   * Every iteration starts again from the same window. Within one, the window that {@link
   * #addReadingToStoredWindow} updates grows by every call; its encoding grows by a byte or two.
   */
  @Setup(Level.Iteration)
  public void storeAHalfFullWindow() {
    windows.put(SERIES, WINDOW_START, halfFullWindow);
  }

  /** The key of the window in its store, built by every read and every write. */
  @Benchmark
  public Bytes buildStoreKey() {
    return StoreKeys.of(SERIES, WINDOW_START);
  }

  /** Store key, lookup and decoding of the state. */
  @Benchmark
  public WindowState readWindow() {
    return windows.get(SERIES, WINDOW_START);
  }

  /** Store key, encoding of the state and the store's put. */
  @Benchmark
  public void writeWindow() {
    windows.put(SERIES, WINDOW_START, halfFullWindow);
  }

  /** The whole per-reading update of one granularity's window. */
  @Benchmark
  public WindowState addReadingToStoredWindow() {
    final WindowState updated =
        windows.get(SERIES, WINDOW_START).add(nextReading, UTC_OFFSET_MINUTES);
    windows.put(SERIES, WINDOW_START, updated);
    return updated;
  }

  /** The arithmetic alone, without the store. */
  @Benchmark
  public BucketStats addReadingToStats() {
    return halfFullWindow.stats().add(nextReading, UTC_OFFSET_MINUTES);
  }

  /** A minute of 1 Hz readings half-way through: thirty readings so far. */
  private static WindowState halfFullWindow() {
    BucketStats stats = BucketStats.of(new Measurement(WINDOW_START, 21.0), UTC_OFFSET_MINUTES);
    for (int second = 1; second < 30; second++) {
      stats = stats.add(new Measurement(WINDOW_START + second * 1_000L, 21.0), UTC_OFFSET_MINUTES);
    }
    return WindowState.open(stats);
  }
}
