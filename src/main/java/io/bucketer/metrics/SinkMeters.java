package io.bucketer.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * The bucket sink's meters, registered here with bucketer's other meters so that their names and
 * tags stay where the README and the Grafana dashboards can find them: {@value #RETRIES} counts
 * retried writes, {@value #PENDING} is the number of polled buckets not yet acknowledged (it stays
 * up while MongoDB is away), {@value #BUCKETS_WRITTEN} (by granularity) and {@value #WRITE_LATENCY}
 * (by outcome, a percentile histogram) count and time the writes, {@value #BATCH_SIZE} is the
 * distribution of buckets per polled batch, and {@value #CLOSE_TO_VISIBLE} times each bucket from
 * its window's close in the topology to MongoDB's acknowledgement.
 */
public final class SinkMeters {

  public static final String BUCKETS_WRITTEN = "bucketer.sink.buckets.written";
  public static final String WRITE_LATENCY = "bucketer.sink.write.latency";
  public static final String RETRIES = "bucketer.sink.retries";
  public static final String PENDING = "bucketer.sink.pending";
  public static final String LAG = "bucketer.sink.lag";
  public static final String BATCH_SIZE = "bucketer.sink.batch.size";
  static final String BATCH_SIZE_UNIT = "buckets";
  public static final String CLOSE_TO_VISIBLE = "bucketer.bucket.close.to.visible";

  /** How a bulk write of a batch ended, the {@code outcome} tag of {@value #WRITE_LATENCY}. */
  public enum WriteOutcome {
    SUCCESS("success"),
    /** MongoDB was unreachable or slow: the batch is written again. */
    RETRYABLE("retryable"),
    /** MongoDB rejected documents: they go to the dead letters. */
    REJECTED("rejected"),
    /** Anything else the write threw. */
    ERROR("error");

    private final String tag;

    WriteOutcome(final String tag) {
      this.tag = tag;
    }
  }

  private final MeterRegistry registry;
  private final Map<String, Counter> writtenByGranularity = new ConcurrentHashMap<>();
  private final Counter retries;
  // The registry holds its gauges weakly: this reference keeps the value alive.
  private final AtomicInteger pending = new AtomicInteger();
  private final AtomicLong lag = new AtomicLong();
  private final DistributionSummary batchSizes;
  private final Timer closeToVisible;

  public SinkMeters(final MeterRegistry registry) {
    this.registry = registry;
    this.retries = registry.counter(RETRIES);
    registry.gauge(PENDING, pending);
    Gauge.builder(LAG, lag, AtomicLong::get).register(registry);
    this.batchSizes =
        DistributionSummary.builder(BATCH_SIZE).baseUnit("buckets").register(registry);
    this.closeToVisible =
        Timer.builder(CLOSE_TO_VISIBLE).publishPercentileHistogram().register(registry);
  }

  /** A batch of {@code size} buckets was polled: they are pending until acknowledged. */
  public void batchPolled(final int size) {
    pending.set(size);
    batchSizes.record(size);
  }

  /**
   * MongoDB acknowledged, at {@code visibleMillis}, the buckets whose windows closed at {@code
   * closedAtMillis} (epoch milliseconds).
   */
  public void visible(final LongStream closedAtMillis, final long visibleMillis) {
    closedAtMillis.forEach(
        closed ->
            closeToVisible.record(Math.max(0, visibleMillis - closed), TimeUnit.MILLISECONDS));
  }

  /**
   * The sink's partitions of the buckets topic hold {@code buckets} records past what it has read:
   * its backlog, before any of it is pending.
   */
  public void lag(final long buckets) {
    lag.set(buckets);
  }

  /** Nothing is pending any more: the batch was committed, or the sink stopped. */
  public void nonePending() {
    pending.set(0);
  }

  /** A write (or the creation of the indexes) failed and will be retried. */
  public void retried() {
    retries.increment();
  }

  /** Starts timing one write of a batch; end it with {@link #writeEnded}. */
  public Timer.Sample writeStarted() {
    return Timer.start(registry);
  }

  /** Ends the timing of one write of a batch. */
  public void writeEnded(final Timer.Sample sample, final WriteOutcome outcome) {
    // A histogram, so that percentiles can be aggregated across instances in Prometheus.
    sample.stop(
        Timer.builder(WRITE_LATENCY)
            .tag("outcome", outcome.tag)
            .publishPercentileHistogram()
            .register(registry));
  }

  /** MongoDB acknowledged {@code count} buckets of the granularity labelled {@code granularity}. */
  public void written(final String granularity, final int count) {
    writtenByGranularity
        .computeIfAbsent(granularity, g -> registry.counter(BUCKETS_WRITTEN, "granularity", g))
        .increment(count);
  }

  /** Buckets acknowledged by MongoDB and counted here, all granularities. */
  public long bucketsWritten() {
    return writtenByGranularity.values().stream().mapToLong(c -> (long) c.count()).sum();
  }

  /** Buckets of the granularity labelled {@code granularity} acknowledged and counted here. */
  public long bucketsWritten(final String granularity) {
    final Counter counter = writtenByGranularity.get(granularity);
    return counter == null ? 0 : (long) counter.count();
  }
}
