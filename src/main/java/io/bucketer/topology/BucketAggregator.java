package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.tenants.SeriesAdmission;
import io.bucketer.tenants.TenantSeriesCounts;
import io.bucketer.topics.BucketHeaders;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.windows.PublishedWindows;
import io.bucketer.windows.WindowCacheBudget;
import io.bucketer.windows.WindowLifecycle;
import io.bucketer.windows.WriteBehindWindows;
import java.time.Duration;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hosts a {@link WindowLifecycle} in a Kafka Streams task: gives it the task's stores, hands it
 * each reading of each record (a series' batch, or from the repartition the batches of every series
 * one upstream task sent to this partition in a commit) and the wall clock, forwards the buckets it
 * closes to the buckets topic, and the readings it finds too late or its tenants' series limits
 * refuse to the dead-letter topic, and counts them. The lifecycle itself is plain Java.
 */
final class BucketAggregator
    implements Processor<SeriesKey, AggregatorInput, String, AggregatorOutput> {

  private final WindowLifecycle.Settings settings;
  private final WindowCacheBudget windowCache;
  private final TenantSeriesCounts seriesCounts;
  private final int seriesShares;
  private final PublishedWindows.Directory publishedWindows;
  private final BucketerMetrics metrics;

  private ProcessorContext<String, AggregatorOutput> context;
  private TaskWindowStore store;
  private WriteBehindWindows windows;
  private WindowLifecycle lifecycle;
  private SeriesAdmission admission;

  BucketAggregator(
      final BucketTopology.Settings settings,
      final WindowCacheBudget windowCache,
      final TenantSeriesCounts seriesCounts,
      final PublishedWindows.Directory publishedWindows,
      final BucketerMetrics metrics) {
    this.settings = settings.lifecycle();
    this.windowCache = windowCache;
    this.seriesCounts = seriesCounts;
    this.seriesShares = settings.seriesShares();
    this.publishedWindows = publishedWindows;
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<String, AggregatorOutput> context) {
    this.context = context;
    // A task whose state was rolled back is initialised again: the lifecycle reads it afresh.
    forget();
    store =
        TaskWindowStore.open(
            TaskWindowStore.Stores.of(context, settings.granularities()),
            settings.granularities(),
            metrics,
            context.taskId().toString(),
            context.currentSystemTimeMs());
    windows = new WriteBehindWindows(store, settings.granularities().get(0), windowCache);
    publishedWindows.register(context.taskId().partition(), windows.published());
    final TaskWindowStore logged = store;
    final WriteBehindWindows cached = windows;
    final PreCommitHookStore hook = context.getStateStore(TopologyNames.WINDOW_LOG_STORE);
    hook.beforeCommit(
        () -> {
          cached.writeChanges();
          logged.flushLog(context.currentSystemTimeMs());
        });
    admission = new SeriesAdmission(seriesCounts, seriesShares);
    lifecycle = new WindowLifecycle(settings, windows, metrics::openBucketsChanged, admission);
    lifecycle.restore(context.currentSystemTimeMs());
    final long idleTimeoutMillis = settings.idleTimeout().toMillis();
    final Duration checkEvery = Duration.ofMillis(Math.max(1, Math.min(idleTimeoutMillis, 1_000)));
    context.schedule(
        checkEvery,
        PunctuationType.WALL_CLOCK_TIME,
        wallClock -> lifecycle.closeIdleSeries(wallClock, bucket -> forward(bucket, wallClock)));
  }

  @Override
  public void process(final Record<SeriesKey, AggregatorInput> record) {
    final long wallClock = context.currentSystemTimeMs();
    record
        .value()
        .forEachSeries(
            record.key(), (series, readings) -> accept(record, series, readings, wallClock));
  }

  private void accept(
      final Record<SeriesKey, AggregatorInput> record,
      final SeriesKey series,
      final ReadingBatch readings,
      final long wallClock) {
    for (int i = 0; i < readings.size(); i++) {
      final long timestamp = readings.timestamp(i);
      final WindowLifecycle.Outcome outcome =
          lifecycle.accept(
              series,
              new Measurement(timestamp, readings.value(i)),
              readings.utcOffsetMinutes(i),
              wallClock,
              bucket -> forward(bucket, timestamp));
      count(outcome);
      if (outcome == WindowLifecycle.Outcome.REFUSED) {
        metrics.deadLetter(DeadLetterHeaders.SERIES_LIMIT);
        final SeriesAdmission.Refusal refusal = admission.lastRefusal();
        // Keyed by its sensor id: a replay then puts it on the partition input keyed by sensor
        // needs (input.partitioning=by-sensor), as Kafka's producer does.
        context.forward(
            record
                .withKey(series.sensorId())
                .withValue(
                    (AggregatorOutput)
                        new AggregatorOutput.OverSeriesLimit(
                            readings.reading(i, series), refusal.tenant().name(), refusal.why()))
                .withTimestamp(timestamp));
      } else if (outcome == WindowLifecycle.Outcome.TOO_LATE) {
        metrics.deadLetter(DeadLetterHeaders.TOO_LATE);
        final Reading whole = readings.reading(i, series);
        final long clock = lifecycle.clockOf(series);
        context.forward(
            record
                .withKey((String) null)
                .withValue((AggregatorOutput) new AggregatorOutput.TooLate(whole, clock))
                .withTimestamp(timestamp));
      }
    }
  }

  private void count(final WindowLifecycle.Outcome outcome) {
    switch (outcome) {
      case ON_TIME -> metrics.reading(ReadingOutcome.ON_TIME);
      case LATE_MERGED -> metrics.reading(ReadingOutcome.LATE_MERGED);
      case RESENT -> metrics.reading(ReadingOutcome.RESENT);
      case REPLACED -> metrics.reading(ReadingOutcome.REPLACED);
      case KEPT_FIRST -> metrics.reading(ReadingOutcome.KEPT_FIRST);
      case TOO_LATE -> metrics.reading(ReadingOutcome.TOO_LATE);
      case REFUSED -> metrics.reading(ReadingOutcome.SERIES_LIMIT);
    }
  }

  private void forward(final ClosedBucket bucket, final long outputTimestamp) {
    context.forward(
        new Record<String, AggregatorOutput>(
            BucketKey.of(bucket),
            new AggregatorOutput.Closed(bucket),
            outputTimestamp,
            new RecordHeaders().add(BucketHeaders.closedAt(context.currentSystemTimeMs()))));
    metrics.bucketEmitted(bucket.granularity().label());
  }

  /**
   * The task moves away or stops: its open windows no longer count on this instance. A clean close
   * has committed, and so logged, every change; the windows still in memory are kept in the local
   * stores as their log has them, so that the task opens from them next time here without a
   * rebuild. A dirty close rolls the state back: under exactly-once Kafka Streams then wipes the
   * local stores, and what was kept with them.
   */
  @Override
  public void close() {
    if (windows != null) {
      windows.keepAll();
    }
    forget();
  }

  private void forget() {
    if (lifecycle != null) {
      metrics.openBucketsChanged(-lifecycle.openWindows());
      lifecycle = null;
    }
    if (admission != null) {
      admission.close();
      admission = null;
    }
    if (windows != null) {
      publishedWindows.unregister(context.taskId().partition(), windows.published());
      windows.discard();
      windows = null;
    }
    if (store != null) {
      store.discard();
      store = null;
    }
  }
}
