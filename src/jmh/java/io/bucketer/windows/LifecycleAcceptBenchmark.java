package io.bucketer.windows;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.WindowComputations;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The window lifecycle's whole per-reading path, as the bench's defaults drive it: {@link
 * WindowLifecycle#accept} of on-time readings of 1 Hz series, 100 of them interleaved, with the
 * default {@code 1m,1h}, over the in-memory store of the window tests. Minutes close, roll up into
 * hours, and hours close, all in the measured loop, so what the rules for rolled-up windows add per
 * reading shows here, without Kafka Streams, RocksDB or serialisation around it. {@code quantiles}
 * compares the default (each window's quantile sketch built at its emit) with {@code
 * quantiles.enabled=false}, side by side.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 2)
public class LifecycleAcceptBenchmark {

  private static final int SERIES = 100;

  /** 2025-06-01T10:00:00Z. */
  private static final long START = 1_748_772_000_000L;

  /** {@code quantiles.enabled}: the default, {@code true}, against {@code false}. */
  @Param({"true", "false"})
  public boolean quantiles;

  private final SeriesKey[] series = new SeriesKey[SERIES];
  private WindowLifecycle lifecycle;
  private long nextTime;
  private int nextSeries;
  private Consumer<ClosedBucket> emitted;

  @Setup
  public void start(final Blackhole blackhole) {
    for (int i = 0; i < SERIES; i++) {
      series[i] = new SeriesKey(String.format("sensor-%04d", i), "temperature");
    }
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                List.of(Granularity.parse("1m"), Granularity.parse("1h")),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                // Two hours, not the default day: the store holds every reading of its horizon in
                // this JVM's heap, and the expiry runs the same way either way.
                Duration.ofHours(2),
                BucketLayout.finestKeepsMeasurements(1000),
                DuplicateTimestamps.KEEP_LAST,
                WindowComputations.DEFAULT.withSketchAccuracies(
                    quantiles ? SketchAccuracies.DEFAULT : SketchAccuracies.OFF)),
            new InMemoryWindowStore(),
            delta -> {});
    lifecycle.restore(START);
    nextTime = START;
    emitted = blackhole::consume;
  }

  /**
   * One reading of the next series; every series sends once a second, a value that ramps by 0.05 a
   * second within each minute (a sketch of a minute holds some twenty bins, not one).
   */
  @Benchmark
  public WindowLifecycle.Outcome acceptOnTimeReading() {
    final SeriesKey of = series[nextSeries];
    final WindowLifecycle.Outcome outcome =
        lifecycle.accept(
            of,
            new Measurement(
                nextTime, 20.0 + nextSeries % 7 + (nextTime - START) / 1_000 % 60 * 0.05),
            null,
            START,
            emitted);
    if (++nextSeries == SERIES) {
      nextSeries = 0;
      nextTime += 1_000;
    }
    return outcome;
  }
}
