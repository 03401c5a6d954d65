package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One upstream task's commit, as {@link ReadingBatcher} gathers it: readings of each of {@link
 * #SERIES} series, spread over the default six partitions, then every partition's batch handed on.
 * At live traffic a commit holds one reading of each series (a 1 Hz fleet of 20,000 sensors read by
 * three tasks sends about 700 per task and 100 ms commit); in a backlog it holds dozens (here 30,
 * 21,000 readings, so the bound on held readings hands batches on mid-commit, as it does there).
 * The figure is per reading. The keys are built once, so their strings' hash codes are cached here
 * where a decoded reading's are not: both sides of any change pay that alike.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 1)
public class PartitionBatchesBenchmark {

  private static final int SERIES = 700;
  private static final int BACKLOG_READINGS_PER_SERIES = 30;
  private static final int PARTITIONS = 6;
  private static final long COMMIT_START = 1_748_772_000_000L;

  private SeriesKey[] series;
  private PartitionBatches batches;
  private Consumer<PartitionBatch> handOn;
  private long commit;

  @Setup
  public void gatherAFleet(final Blackhole blackhole) {
    series = new SeriesKey[SERIES];
    for (int n = 0; n < SERIES; n++) {
      series[n] = new SeriesKey("gateway-7/sensor-" + (100_000 + n), "temperature");
    }
    batches =
        new PartitionBatches(
            PARTITIONS, ReadingBatcher.MAX_BATCH_READINGS, ReadingBatcher.MAX_HELD_READINGS);
    handOn = blackhole::consume;
  }

  /** Live traffic: one reading of every series, then the commit's drain. */
  @Benchmark
  @OperationsPerInvocation(SERIES)
  public void liveCommit() {
    commit(1);
  }

  /** A backlog: 30 readings of every series, a second apart, then the commit's drain. */
  @Benchmark
  @OperationsPerInvocation(SERIES * BACKLOG_READINGS_PER_SERIES)
  public void backlogCommit() {
    commit(BACKLOG_READINGS_PER_SERIES);
  }

  private void commit(final int readingsPerSeries) {
    final long time = COMMIT_START + 100_000 * commit++;
    for (int reading = 0; reading < readingsPerSeries; reading++) {
      for (int n = 0; n < SERIES; n++) {
        batches.add(series[n], time + 1_000 * reading + n, 21.5, null, handOn);
      }
    }
    batches.drain(handOn);
  }
}
