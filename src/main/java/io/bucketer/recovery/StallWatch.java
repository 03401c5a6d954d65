package io.bucketer.recovery;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * A thread of its own that ticks every second, so that nothing else the processor does can delay a
 * tick and pass for a stall: each tick asks the detector whether the process stood still since the
 * last, and shows the recovery what Kafka Streams says now.
 */
public final class StallWatch implements AutoCloseable {

  static final Duration TICK = Duration.ofSeconds(1);

  private final ScheduledExecutorService ticks =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            final Thread thread = new Thread(runnable, "bucketer-stall-watch");
            thread.setDaemon(true);
            return thread;
          });

  private StallWatch() {}

  /**
   * Starts watching what {@code streams} tells of Kafka Streams for {@code recovery}, {@code loop}
   * and {@code breaker}.
   */
  public static StallWatch start(
      final StallRecovery recovery,
      final FencingLoop loop,
      final FencingLoopBreaker breaker,
      final Supplier<StallRecovery.StreamsView> streams) {
    final StallWatch watch = new StallWatch();
    final StallDetector detector = new StallDetector(TICK, System.nanoTime());
    // With a fixed delay, not a fixed rate: after a stall the executor must not run the missed
    // ticks back to back, each of which would measure no gap.
    watch.ticks.scheduleWithFixedDelay(
        () -> {
          final StallRecovery.StreamsView now = streams.get();
          recovery.observe(detector.tick(System.nanoTime()), now);
          loop.observe(now);
          breaker.consider();
        },
        TICK.toMillis(),
        TICK.toMillis(),
        TimeUnit.MILLISECONDS);
    return watch;
  }

  /**
   * Kafka Streams' state, and its stream threads' commits and records processed so far, from its
   * client metrics, summed over the stream threads in one pass: {@code commit-total} counts a
   * thread's commits once they succeeded, never a fenced one; {@code process-total} the records its
   * tasks processed.
   */
  public static StallRecovery.StreamsView look(final KafkaStreams streams) {
    long commits = 0;
    long processed = 0;
    for (final Map.Entry<MetricName, ? extends Metric> entry : streams.metrics().entrySet()) {
      final MetricName name = entry.getKey();
      if (name.group().equals("stream-thread-metrics")
          && entry.getValue().metricValue() instanceof Number count) {
        if (name.name().equals("commit-total")) {
          commits += count.longValue();
        } else if (name.name().equals("process-total")) {
          processed += count.longValue();
        }
      }
    }
    return new StallRecovery.StreamsView(streams.state(), commits, processed);
  }

  @Override
  public void close() {
    ticks.shutdownNow();
  }
}
