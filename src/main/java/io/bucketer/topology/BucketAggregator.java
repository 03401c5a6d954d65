package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.topics.BucketKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the open buckets of every granularity for the series of one task, and closes them.
 *
 * <p>Time is kept <em>per series</em>: a series' watermark is the greatest event time of its
 * readings. A window {@code [start, end)} of a series closes once that series' watermark reaches
 * {@code end + grace}; its bucket is emitted exactly then, and closed finer buckets are rolled up
 * into the coarser ones before those are checked, so a coarser bucket always holds all of its finer
 * buckets. A reading whose window has already closed is emitted as too late rather than reopening
 * the window, which would replace the stored document with a partial one.
 *
 * <p>Why per series and not per task (Kafka Streams' stream time): the repartition topic merges
 * records that several upstream tasks forward, each at its own pace. Catching up on a backlog, one
 * upstream task can run hours of event time ahead of another, and a task-wide clock would declare
 * the slower one's readings late. A series comes from one place, so its own time is safe. For the
 * same reason windows are closed here rather than by the DSL's {@code onWindowClose()}, which also
 * throttles emission to once a second of wall-clock time (see the platform notes).
 *
 * <p>A series that stops sending would keep its last windows open forever. A wall-clock punctuator
 * therefore closes, for every series that has sent nothing for the idle timeout, the windows whose
 * {@code end + grace} has passed on the wall clock. The series' watermark then moves to the latest
 * window it closed, so those windows never reopen.
 */
final class BucketAggregator implements Processor<SeriesKey, Reading, String, AggregatorOutput> {

  private final RollupPlan plan;
  private final long graceMillis;
  private final long idleTimeoutMillis;
  private final BucketerMetrics metrics;
  private final SeriesKeySerde seriesSerde = new SeriesKeySerde();

  private ProcessorContext<String, AggregatorOutput> context;
  private final Map<Granularity, OpenBucketStore> stores = new LinkedHashMap<>();
  private KeyValueStore<Bytes, Long> watermarks;

  /** Wall-clock time of the last reading of every series that still has open buckets. */
  private final Map<SeriesKey, Long> lastReadingWallClock = new HashMap<>();

  BucketAggregator(
      final RollupPlan plan,
      final Duration grace,
      final Duration idleTimeout,
      final BucketerMetrics metrics) {
    this.metrics = metrics;
    this.plan = plan;
    this.graceMillis = grace.toMillis();
    this.idleTimeoutMillis = idleTimeout.toMillis();
  }

  @Override
  public void init(final ProcessorContext<String, AggregatorOutput> context) {
    this.context = context;
    for (final Granularity granularity : plan.granularities()) {
      stores.put(
          granularity,
          new OpenBucketStore(
              granularity,
              context.getStateStore(TopologyNames.statsStore(granularity)),
              context.getStateStore(TopologyNames.measurementsStore(granularity))));
    }
    watermarks = context.getStateStore(TopologyNames.WATERMARK_STORE);
    // After a restart, restored open buckets get a full idle timeout before the wall clock may
    // close them: their series may simply not have been read again yet.
    final long now = context.currentSystemTimeMs();
    for (final OpenBucketStore store : stores.values()) {
      store.seriesWithOpenBuckets().forEach(series -> lastReadingWallClock.put(series, now));
    }
    final Duration checkEvery = Duration.ofMillis(Math.min(idleTimeoutMillis, 1_000));
    context.schedule(checkEvery, PunctuationType.WALL_CLOCK_TIME, this::closeIdleSeries);
  }

  @Override
  public void process(final Record<SeriesKey, Reading> record) {
    final SeriesKey series = record.key();
    final Reading reading = record.value();
    final long timestamp = reading.getTimestamp().toEpochMilli();
    final Bytes watermarkKey = Bytes.wrap(seriesSerde.serializer().serialize(null, series));
    final Long stored = watermarks.get(watermarkKey);
    final long watermark = stored == null ? Long.MIN_VALUE : stored;
    if (isTooLate(timestamp, watermark)) {
      metrics.reading(ReadingOutcome.TOO_LATE);
      metrics.deadLetter(TooLateReadings.REASON);
      final AggregatorOutput tooLate = new AggregatorOutput.TooLate(reading, watermark);
      context.forward(record.withKey((String) null).withValue(tooLate));
      return;
    }
    final Measurement measurement = new Measurement(timestamp, reading.getValue());
    for (final Granularity granularity : plan.fedByReadings()) {
      stores.get(granularity).add(series, measurement, reading.getUtcOffsetMinutes());
    }
    metrics.reading(ReadingOutcome.ON_TIME);
    lastReadingWallClock.put(series, context.currentSystemTimeMs());
    if (timestamp > watermark) {
      watermarks.put(watermarkKey, timestamp);
      if (crossesAWindowClose(watermark, timestamp)) {
        closeWindows(series, timestamp, record.timestamp());
      }
    }
  }

  /** True when a window this reading belongs to has already closed for its series. */
  private boolean isTooLate(final long timestamp, final long watermark) {
    if (watermark == Long.MIN_VALUE) {
      return false;
    }
    for (final Granularity granularity : plan.fedByReadings()) {
      final long end = granularity.windowEnd(granularity.windowStart(timestamp));
      if (end + graceMillis <= watermark) {
        return true;
      }
    }
    return false;
  }

  /** Whether moving the watermark from {@code before} to {@code after} may close any window. */
  private boolean crossesAWindowClose(final long before, final long after) {
    if (before == Long.MIN_VALUE) {
      return true;
    }
    for (final Granularity granularity : plan.granularities()) {
      if (lastClosableStart(granularity, after) != lastClosableStart(granularity, before)) {
        return true;
      }
    }
    return false;
  }

  /** The start of the latest window of {@code granularity} that is closed at {@code time}. */
  private long lastClosableStart(final Granularity granularity, final long time) {
    final long size = granularity.sizeMillis();
    return Math.floorDiv(time - graceMillis - size, size) * size;
  }

  /**
   * Closes every window of {@code series} with {@code end + grace <= until}, finest granularity
   * first, and returns the latest {@code end + grace} among the windows it closed.
   */
  private long closeWindows(final SeriesKey series, final long until, final long outputTimestamp) {
    long latestClose = Long.MIN_VALUE;
    for (final Granularity granularity : plan.granularities()) {
      final OpenBucketStore store = stores.get(granularity);
      for (final OpenBucketStore.OpenBucket open :
          store.openBuckets(series, lastClosableStart(granularity, until))) {
        final ClosedBucket closed = store.close(open);
        for (final Granularity coarser : plan.rolledUpFrom(granularity)) {
          stores.get(coarser).rollUp(closed);
        }
        context.forward(
            new Record<String, AggregatorOutput>(
                BucketKey.of(closed), new AggregatorOutput.Closed(closed), outputTimestamp));
        latestClose = Math.max(latestClose, closed.windowEnd() + graceMillis);
      }
    }
    return latestClose;
  }

  private void closeIdleSeries(final long wallClock) {
    final Iterator<Map.Entry<SeriesKey, Long>> entries = lastReadingWallClock.entrySet().iterator();
    while (entries.hasNext()) {
      final Map.Entry<SeriesKey, Long> entry = entries.next();
      if (wallClock - entry.getValue() < idleTimeoutMillis) {
        continue;
      }
      final SeriesKey series = entry.getKey();
      final long latestClose = closeWindows(series, wallClock, wallClock);
      if (latestClose != Long.MIN_VALUE) {
        final Bytes watermarkKey = Bytes.wrap(seriesSerde.serializer().serialize(null, series));
        final Long watermark = watermarks.get(watermarkKey);
        if (watermark == null || watermark < latestClose) {
          watermarks.put(watermarkKey, latestClose);
        }
      }
      if (!hasOpenBuckets(series)) {
        entries.remove();
      }
    }
  }

  private boolean hasOpenBuckets(final SeriesKey series) {
    return stores.values().stream()
        .anyMatch(store -> !store.openBuckets(series, Long.MAX_VALUE).isEmpty());
  }
}
