package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Handover;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hosts a {@link WindowLifecycle} in a Kafka Streams task: gives it the task's stores, hands it
 * each reading of each record (a series' batch, or from the repartition the batches of every series
 * one upstream task sent to this partition in a commit) and the wall clock, forwards the buckets it
 * closes to the buckets topic (a window's revisions, for readings late for it, once a commit), and
 * the readings it finds too late or its tenants' series limits refuse to the dead-letter topic, and
 * counts them. The lifecycle itself is plain Java.
 */
final class BucketAggregator
    implements Processor<SeriesKey, AggregatorInput, String, AggregatorOutput> {

  private final WindowLifecycle.Settings settings;
  private final long holdMillis;
  private final Handover handover;
  private final WindowCacheBudget windowCache;
  private final TenantSeriesCounts seriesCounts;
  private final int seriesShares;
  private final PublishedWindows.Directory publishedWindows;
  private final BucketerMetrics metrics;

  /**
   * Revisions of closed windows, by window, sent at the commit ({@link CommitTimeForwarder}): a
   * burst of late readings for one window (a gateway's backlog, readings of a moved partition) is
   * one revision of it a commit, not one per reading. Each revision holds the whole window, so that
   * sending every one made a transaction's work grow with the square of the burst; the buckets
   * topic and MongoDB keep only the last one anyway.
   */
  private final Map<String, PendingRevision> revisions = new LinkedHashMap<>();

  private record PendingRevision(String key, ClosedBucket bucket, long outputTimestamp) {}

  /** Runs forwarding outside {@code process}, in the hook before a commit. */
  @FunctionalInterface
  interface CommitForwarding {
    void run(long timestamp, Runnable forwarding);
  }

  private final Function<ProcessorContext<?, ?>, CommitForwarding> commitForwarding;
  private ProcessorContext<String, AggregatorOutput> context;
  // Named in every bucket record's header: encoded once.
  private byte[] applicationId;
  private CommitForwarding atCommit;
  private TaskWindowStore store;
  private WriteBehindWindows windows;
  private WindowLifecycle lifecycle;
  private SeriesAdmission admission;
  // With readings.hold=0 it holds only what a run with a hold left in the log, until applied.
  private ReadingHold hold;

  BucketAggregator(
      final BucketTopology.Settings settings,
      final WindowCacheBudget windowCache,
      final TenantSeriesCounts seriesCounts,
      final PublishedWindows.Directory publishedWindows,
      final BucketerMetrics metrics) {
    this(
        settings,
        windowCache,
        seriesCounts,
        publishedWindows,
        metrics,
        context -> new CommitTimeForwarder(context)::run);
  }

  /**
   * @param commitForwarding how to forward at commit: Kafka Streams' own context needs {@link
   *     CommitTimeForwarder}; a test's mock context forwards anywhere
   */
  BucketAggregator(
      final BucketTopology.Settings settings,
      final WindowCacheBudget windowCache,
      final TenantSeriesCounts seriesCounts,
      final PublishedWindows.Directory publishedWindows,
      final BucketerMetrics metrics,
      final Function<ProcessorContext<?, ?>, CommitForwarding> commitForwarding) {
    this.commitForwarding = commitForwarding;
    this.settings = settings.lifecycle();
    this.holdMillis = settings.readingsHold().toMillis();
    this.handover = settings.handover();
    this.windowCache = windowCache;
    this.seriesCounts = seriesCounts;
    this.seriesShares = settings.seriesShares();
    this.publishedWindows = publishedWindows;
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<String, AggregatorOutput> context) {
    this.context = context;
    this.applicationId = context.applicationId().getBytes(StandardCharsets.UTF_8);
    this.atCommit = commitForwarding.apply(context);
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
    // Restored whatever the hold: readings a run with a longer hold logged are applied all the
    // same (at once with readings.hold=0), never left in the log.
    hold =
        new ReadingHold(
            hook.store(), holdMillis, context.taskId().partition(), metrics::readingsHeldChanged);
    hold.restore(context.currentSystemTimeMs());
    final ReadingHold held = hold;
    hook.beforeCommit(
        () -> {
          if (held.applyAtCommit()) {
            final long now = context.currentSystemTimeMs();
            atCommit.run(now, () -> applyHeld(now));
          }
          sendRevisions();
          held.beforeCommit();
          cached.writeChanges();
          logged.flushLog(context.currentSystemTimeMs());
        });
    admission = new SeriesAdmission(seriesCounts, seriesShares);
    lifecycle = new WindowLifecycle(settings, windows, metrics::openBucketsChanged, admission);
    lifecycle.restore(context.currentSystemTimeMs());
    final long idleTimeoutMillis = settings.idleTimeout().toMillis();
    long checkMillis = Math.min(idleTimeoutMillis, 1_000);
    if (holdMillis > 0) {
      checkMillis = Math.min(checkMillis, holdMillis);
    }
    context.schedule(
        Duration.ofMillis(Math.max(1, checkMillis)),
        PunctuationType.WALL_CLOCK_TIME,
        this::onWallClock);
  }

  /**
   * Applies the held readings once they are due, then closes quiet series. A series is judged quiet
   * on the wall clock of a hold ago: a reading it sent since may still be held, and its windows
   * must not close under it.
   */
  private void onWallClock(final long wallClock) {
    if (hold.due(wallClock) || !holding(wallClock) && hold.holdsAny()) {
      applyHeld(wallClock);
    }
    lifecycle.closeIdleSeries(wallClock - holdMillis, bucket -> forward(bucket, wallClock));
  }

  /**
   * Whether readings are held before their apply now. Not by a deployment that a rescale replaces,
   * once the handover has come: it then takes only late readings, few, applied as they come, so
   * that it holds none when `bucketer rescale status` says it may stop.
   */
  private boolean holding(final long wallClock) {
    return holdMillis > 0
        && !(handover.side() == Handover.Side.BEFORE && wallClock >= handover.handoverMillis());
  }

  /** Applies every reading held, series by series. */
  private void applyHeld(final long wallClock) {
    hold.applyBySeries(
        lifecycle.seriesWithState(),
        (series, readings) -> accept(null, series, readings, wallClock));
  }

  @Override
  public void process(final Record<SeriesKey, AggregatorInput> record) {
    final long wallClock = context.currentSystemTimeMs();
    if (holding(wallClock) || hold.holdsAny()) {
      // Behind held readings of its series a reading waits too: each series' in the order they
      // came.
      hold.add(record.value(), record.key(), wallClock);
      if (hold.full()) {
        context.commit(); // which applies what it holds
      }
      return;
    }
    record
        .value()
        .forEachSeries(
            record.key(), (series, readings) -> accept(record, series, readings, wallClock));
  }

  /**
   * Applies one series' readings; {@code record} is the record they came in, null for readings held
   * (their dead letters then name no source: they are applied in a punctuation).
   */
  private void accept(
      final Record<SeriesKey, AggregatorInput> record,
      final SeriesKey series,
      final ReadingBatch readings,
      final long wallClock) {
    for (int i = 0; i < readings.size(); i++) {
      final long timestamp = readings.timestamp(i);
      if (handover.precedesThisLayout(timestamp)) {
        metrics.reading(ReadingOutcome.TOO_LATE);
        deadLetterTooLate(record, readings.reading(i, series), timestamp, handover.tooLateHere());
        continue;
      }
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
            output(
                record,
                series.sensorId(),
                new AggregatorOutput.OverSeriesLimit(
                    readings.reading(i, series), refusal.tenant().name(), refusal.why()),
                timestamp));
      } else if (outcome == WindowLifecycle.Outcome.TOO_LATE) {
        deadLetterTooLate(
            record,
            readings.reading(i, series),
            timestamp,
            "the reading's window closed when event time reached "
                + Instant.ofEpochMilli(lifecycle.clockOf(series)));
      }
    }
  }

  /** To the dead-letter topic as too late, saying why. */
  private void deadLetterTooLate(
      final Record<SeriesKey, AggregatorInput> record,
      final Reading reading,
      final long timestamp,
      final String why) {
    metrics.deadLetter(DeadLetterHeaders.TOO_LATE);
    context.forward(output(record, null, new AggregatorOutput.TooLate(reading, why), timestamp));
  }

  /** A record of {@code value}: from {@code source}, its headers kept, or new when it is null. */
  private static Record<String, AggregatorOutput> output(
      final Record<SeriesKey, AggregatorInput> source,
      final String key,
      final AggregatorOutput value,
      final long timestamp) {
    return source == null
        ? new Record<>(key, value, timestamp)
        : source.withKey(key).withValue(value).withTimestamp(timestamp);
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

  /** A window closed for the first time goes at once; a revision of one at the commit. */
  private void forward(final ClosedBucket bucket, final long outputTimestamp) {
    if (bucket.revision() > 0) {
      final String key = BucketKey.of(bucket);
      revisions.put(key, new PendingRevision(key, bucket, outputTimestamp));
    } else {
      send(BucketKey.of(bucket), bucket, outputTimestamp);
    }
  }

  private void sendRevisions() {
    if (revisions.isEmpty()) {
      return;
    }
    atCommit.run(
        context.currentSystemTimeMs(),
        () ->
            revisions
                .values()
                .forEach(
                    pending -> send(pending.key(), pending.bucket(), pending.outputTimestamp())));
    revisions.clear();
  }

  private void send(final String key, final ClosedBucket bucket, final long outputTimestamp) {
    context.forward(
        new Record<String, AggregatorOutput>(
            key,
            new AggregatorOutput.Closed(bucket),
            outputTimestamp,
            new RecordHeaders()
                .add(BucketHeaders.closedAt(context.currentSystemTimeMs()))
                .add(BucketHeaders.writtenBy(applicationId))));
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
    // Revisions of a state that is rolled back, or was committed with them.
    revisions.clear();
    if (hold != null) {
      hold.forget(); // what was logged is read again from the log
      hold = null;
    }
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
