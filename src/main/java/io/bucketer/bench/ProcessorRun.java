package io.bucketer.bench;

import io.bucketer.app.BucketerApp;
import io.bucketer.config.BucketerConfig;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.sink.BucketSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * bucketer itself, in this JVM, with its production defaults: from the moment its topology has
 * processed its first reading ({@link FirstRecord}) until MongoDB has acknowledged every bucket
 * document the readings make. Also reads the close-to-visible latency of those buckets from the
 * sink's own timer.
 */
final class ProcessorRun {

  /**
   * How long it took, the close-to-visible latency of the buckets in milliseconds, and the Kafka
   * records its topology wrote.
   */
  record Result(
      PhaseClock.Measured time,
      double latencyP50Millis,
      double latencyP99Millis,
      long buckets,
      ProducedRecords written,
      Map<String, Long> stateOperations,
      StageRecording.Sampled stages) {}

  private ProcessorRun() {}

  /**
   * Starts the processor on {@code settings} and waits until {@code bucketWrites} (write statements
   * MongoDB received) reaches {@code expectedDocuments}. With {@code sampleStages}, records this
   * JVM's stacks over exactly the timed phase, for {@link StageBreakdown}; else its stages are
   * null.
   */
  static Result run(
      final PhaseClock clock,
      final Map<String, Object> settings,
      final long expectedDocuments,
      final LongSupplier bucketWrites,
      final LongSupplier storedDocuments,
      final Duration timeout,
      final boolean sampleStages,
      final LongConsumer progress)
      throws InterruptedException {
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    meters.config().meterFilter(exactPercentiles(BucketSink.CLOSE_TO_VISIBLE));
    final long writesBefore = bucketWrites.getAsLong();
    final BucketerConfig config = new BucketerConfig(settings);
    try (BucketerApp app = BucketerApp.start(config, meters)) {
      final Deadline deadline = new Deadline(timeout);
      FirstRecord.await(app::kafkaStreamsMetrics, app::streamsState, deadline, "the processor");
      final PhaseClock.Measured time;
      final StageRecording.Sampled stages;
      // null when not sampling: try-with-resources then closes nothing
      try (StageRecording recording = sampleStages ? StageRecording.start() : null) {
        clock.start();
        awaitEveryDocument(
            app,
            deadline,
            expectedDocuments,
            bucketWrites,
            writesBefore,
            storedDocuments,
            progress);
        time = clock.stop();
        stages = recording == null ? null : recording.stop();
      }
      // A new processor each round: its producers' counts are this round's, from the start.
      final ProducedRecords written =
          ProducedRecords.of(config.applicationId(), app.kafkaStreamsMetrics())
              .including(List.of(config.bucketsTopic(), config.deadLetterTopic()));
      final Timer latency = meters.get(BucketSink.CLOSE_TO_VISIBLE).timer();
      return new Result(
          time,
          percentile(latency, 0.5),
          percentile(latency, 0.99),
          latency.count(),
          written,
          stateOperations(meters),
          stages);
    }
  }

  private static void awaitEveryDocument(
      final BucketerApp app,
      final Deadline deadline,
      final long expectedDocuments,
      final LongSupplier bucketWrites,
      final long writesBefore,
      final LongSupplier storedDocuments,
      final LongConsumer progress)
      throws InterruptedException {
    long lastReport = System.nanoTime();
    while (bucketWrites.getAsLong() - writesBefore < expectedDocuments) {
      deadline.check(
          "MongoDB to receive "
              + expectedDocuments
              + " bucket documents (has "
              + (bucketWrites.getAsLong() - writesBefore)
              + ")");
      if (!app.isHealthy()) {
        throw new IllegalStateException("the processor stopped: " + app.streamsState());
      }
      TimeUnit.MILLISECONDS.sleep(StandInOperations.POLL_MILLIS);
      if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
        lastReport = System.nanoTime();
        progress.accept(bucketWrites.getAsLong() - writesBefore);
      }
    }
    // Write statements include rewrites (a redelivered batch); the documents must be there too.
    while (storedDocuments.getAsLong() < expectedDocuments) {
      deadline.check("MongoDB to hold " + expectedDocuments + " bucket documents");
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  /** What the window lifecycle asked of its stores, by operation, over the whole run. */
  private static Map<String, Long> stateOperations(final MeterRegistry meters) {
    final Map<String, Long> operations = new TreeMap<>();
    for (final Counter counter : meters.find(BucketerMetrics.STATE_OPERATIONS).counters()) {
      operations.put(counter.getId().getTag("operation"), (long) counter.count());
    }
    return operations;
  }

  /**
   * Client-side percentiles over the whole run for one timer, instead of the rolling two-minute
   * window Micrometer uses by default.
   */
  private static MeterFilter exactPercentiles(final String name) {
    return new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(
          final Meter.Id id, final DistributionStatisticConfig config) {
        if (!id.getName().equals(name)) {
          return config;
        }
        return DistributionStatisticConfig.builder()
            .percentiles(0.5, 0.99)
            .percentilePrecision(2)
            .expiry(Duration.ofHours(1))
            .bufferLength(1)
            .build()
            .merge(config);
      }
    };
  }

  private static double percentile(final Timer timer, final double percentile) {
    for (final ValueAtPercentile value : timer.takeSnapshot().percentileValues()) {
      if (value.percentile() == percentile) {
        return value.value(TimeUnit.MILLISECONDS);
      }
    }
    throw new IllegalStateException("no percentile " + percentile + " on " + timer.getId());
  }
}
