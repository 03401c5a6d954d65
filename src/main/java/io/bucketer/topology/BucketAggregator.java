package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.topics.BucketHeaders;
import io.bucketer.topics.BucketKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the windows of every granularity for the series of one task, closes them, and re-closes
 * them when late readings arrive.
 *
 * <p><b>Time is kept per series.</b> A series' watermark is the greatest event time of its
 * readings. A window {@code [start, end)} closes once its series' watermark reaches {@code end +
 * grace}: its buckets are emitted then, and closed finer windows are rolled up into the coarser
 * ones before those are checked. Per series, not per task (Kafka Streams' stream time), because the
 * repartition topic merges what several upstream tasks forward, each at its own pace: catching up
 * on a backlog, one can run hours of event time ahead of another, and a task-wide clock would call
 * the slower one's readings late. Windows are closed here rather than by the DSL's {@code
 * onWindowClose()}, which also throttles emission to once a second of wall-clock time.
 *
 * <p><b>Late readings.</b> A closed window stays in the store, with every reading, until its
 * series' watermark passes {@code end + grace + lateness horizon}. A reading for it in that time is
 * merged in and the window is emitted again, whole, with a higher revision; the coarser windows
 * that contain it are updated the same way. After the horizon a reading is too late: dead-lettered.
 *
 * <p><b>Quiet series.</b> A series that stops sending would keep its last windows open forever. A
 * wall-clock punctuator closes, for every series that has sent nothing for the idle timeout, the
 * windows whose {@code end + grace} has passed on the wall clock, and moves the series' watermark
 * to them; a reading for one of them afterwards is late, and merged within the horizon. A series
 * silent for a whole horizon of wall-clock time forgets its closed windows.
 */
final class BucketAggregator implements Processor<SeriesKey, Reading, String, AggregatorOutput> {

  private final RollupPlan plan;
  private final Granularity finest;
  private final long coarsestMillis;
  private final long graceMillis;
  private final long idleTimeoutMillis;
  private final long horizonMillis;
  private final int maxMeasurements;
  private final BucketerMetrics metrics;
  private final SeriesKeySerde seriesSerde = new SeriesKeySerde();

  private ProcessorContext<String, AggregatorOutput> context;
  private final Map<Granularity, WindowStateStore> windows = new LinkedHashMap<>();
  private ReadingLogStore readings;
  private KeyValueStore<Bytes, Long> watermarks;

  /** Open windows of this task, all granularities: its share of the open-buckets gauge. */
  private long openWindows;

  /** Series that have state, with when they last sent a reading and when to look at them next. */
  private final Map<SeriesKey, Activity> activity = new HashMap<>();

  private static final class Activity {
    long lastReadingWallClock;
    long nextIdleCheck;

    Activity(final long now, final long nextCheck) {
      this.lastReadingWallClock = now;
      this.nextIdleCheck = nextCheck;
    }
  }

  BucketAggregator(final BucketTopology.Settings settings, final BucketerMetrics metrics) {
    this.plan = new RollupPlan(settings.granularities());
    this.finest = plan.granularities().get(0);
    this.coarsestMillis = plan.granularities().get(plan.granularities().size() - 1).sizeMillis();
    this.graceMillis = settings.grace().toMillis();
    this.idleTimeoutMillis = settings.idleTimeout().toMillis();
    this.horizonMillis = settings.latenessHorizon().toMillis();
    this.maxMeasurements = settings.maxMeasurementsPerBucket();
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<String, AggregatorOutput> context) {
    this.context = context;
    for (final Granularity granularity : plan.granularities()) {
      windows.put(
          granularity,
          new WindowStateStore(context.getStateStore(TopologyNames.windowStore(granularity))));
    }
    readings = new ReadingLogStore(context.getStateStore(TopologyNames.READINGS_STORE));
    watermarks = context.getStateStore(TopologyNames.WATERMARK_STORE);
    // After a restart, restored series get a full idle timeout before the wall clock may close
    // their windows: they may simply not have been read again yet.
    final long now = context.currentSystemTimeMs();
    final Set<SeriesKey> restored = new HashSet<>();
    for (final WindowStateStore store : windows.values()) {
      openWindowsChanged(store.collectSeries(restored));
    }
    restored.forEach(series -> activity.put(series, new Activity(now, now + idleTimeoutMillis)));
    final Duration checkEvery = Duration.ofMillis(Math.max(1, Math.min(idleTimeoutMillis, 1_000)));
    context.schedule(checkEvery, PunctuationType.WALL_CLOCK_TIME, this::closeIdleSeries);
  }

  @Override
  public void process(final Record<SeriesKey, Reading> record) {
    final SeriesKey series = record.key();
    final Reading reading = record.value();
    final long timestamp = reading.getTimestamp().toEpochMilli();
    final Bytes watermarkKey = watermarkKey(series); // serialised once per reading, used twice
    final long watermark = watermark(watermarkKey);
    if (isBeyondHorizon(timestamp, watermark)) {
      metrics.reading(ReadingOutcome.TOO_LATE);
      metrics.deadLetter(TooLateReadings.REASON);
      final AggregatorOutput tooLate = new AggregatorOutput.TooLate(reading, watermark);
      context.forward(record.withKey((String) null).withValue(tooLate));
      return;
    }
    final Measurement measurement = new Measurement(timestamp, reading.getValue());
    final List<Granularity> reclosed = new ArrayList<>();
    int arrival = 0;
    for (final Granularity granularity : plan.granularities()) {
      if (!receivesReadingDirectly(granularity, timestamp, watermark)) {
        continue;
      }
      final long start = granularity.windowStart(timestamp);
      final WindowStateStore store = windows.get(granularity);
      final WindowState before = store.get(series, start);
      final WindowState after;
      if (before == null) {
        final WindowState fresh =
            WindowState.open(BucketStats.of(measurement, reading.getUtcOffsetMinutes()));
        after = isClosed(granularity, start, watermark) ? fresh.close() : fresh;
        if (!after.closed()) {
          openWindowsChanged(1);
        }
      } else {
        after = before.add(measurement, reading.getUtcOffsetMinutes());
      }
      if (granularity.equals(finest)) {
        arrival = before == null ? 0 : (int) before.stats().count();
      }
      store.put(series, start, after);
      if (after.closed()) {
        reclosed.add(granularity);
      }
    }
    readings.append(series, timestamp, arrival, measurement.value());
    for (final Granularity granularity : reclosed) {
      emit(series, granularity, granularity.windowStart(timestamp), record.timestamp());
    }
    metrics.reading(reclosed.isEmpty() ? ReadingOutcome.ON_TIME : ReadingOutcome.LATE_MERGED);
    final long now = context.currentSystemTimeMs();
    final Activity seen = activity.computeIfAbsent(series, s -> new Activity(now, now));
    seen.lastReadingWallClock = now;
    seen.nextIdleCheck = now + idleTimeoutMillis;
    if (timestamp > watermark) {
      watermarks.put(watermarkKey, timestamp);
      closeWindows(series, watermark, timestamp, record.timestamp());
      if (watermark == Long.MIN_VALUE
          || lastClosedStart(finest, watermark) != lastClosedStart(finest, timestamp)) {
        expire(series, timestamp);
      }
    }
  }

  /**
   * A granularity fed by readings always takes the reading itself. A rolled-up one takes it only
   * when the window of its source has already closed, and so already been rolled up into it;
   * otherwise the reading reaches it with that rollup.
   */
  private boolean receivesReadingDirectly(
      final Granularity granularity, final long timestamp, final long watermark) {
    final Optional<Granularity> source = plan.sourceOf(granularity);
    return source.isEmpty()
        || isClosed(source.get(), source.get().windowStart(timestamp), watermark);
  }

  private boolean isClosed(final Granularity granularity, final long start, final long watermark) {
    return watermark != Long.MIN_VALUE && granularity.windowEnd(start) + graceMillis <= watermark;
  }

  /** True when a window holding this reading was closed longer than the lateness horizon ago. */
  private boolean isBeyondHorizon(final long timestamp, final long watermark) {
    if (watermark == Long.MIN_VALUE) {
      return false;
    }
    for (final Granularity granularity : plan.fedByReadings()) {
      final long end = granularity.windowEnd(granularity.windowStart(timestamp));
      if (end + graceMillis + horizonMillis <= watermark) {
        return true;
      }
    }
    return false;
  }

  /** The start of the latest window of {@code granularity} that is closed at {@code watermark}. */
  private long lastClosedStart(final Granularity granularity, final long watermark) {
    if (watermark == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    final long size = granularity.sizeMillis();
    return Math.floorDiv(watermark - graceMillis - size, size) * size;
  }

  /**
   * Closes the windows of {@code series} that the watermark's move from {@code before} to {@code
   * after} closes, finest granularity first. Returns the latest {@code end + grace} among the
   * windows it closed. Only a move across a window boundary can close anything, so most readings
   * return at once.
   */
  private long closeWindows(
      final SeriesKey series, final long before, final long after, final long outputTimestamp) {
    long latestClose = Long.MIN_VALUE;
    for (final Granularity granularity : plan.granularities()) {
      if (lastClosedStart(granularity, before) == lastClosedStart(granularity, after)) {
        continue;
      }
      final WindowStateStore store = windows.get(granularity);
      for (final WindowStateStore.Window window :
          store.between(
              series, lastClosedStart(granularity, before), lastClosedStart(granularity, after))) {
        if (window.state().closed()) {
          continue; // created late, in a window that had already closed, and emitted then
        }
        store.put(series, window.start(), window.state().close());
        openWindowsChanged(-1);
        for (final Granularity coarser : plan.rolledUpFrom(granularity)) {
          rollUp(series, coarser, coarser.windowStart(window.start()), window.state().stats());
        }
        emit(series, granularity, window.start(), outputTimestamp);
        latestClose = Math.max(latestClose, granularity.windowEnd(window.start()) + graceMillis);
      }
    }
    return latestClose;
  }

  private void rollUp(
      final SeriesKey series,
      final Granularity coarser,
      final long start,
      final BucketStats finer) {
    final WindowStateStore store = windows.get(coarser);
    final WindowState before = store.get(series, start);
    if (before == null) {
      openWindowsChanged(1);
    }
    store.put(series, start, before == null ? WindowState.open(finer) : before.merge(finer));
  }

  /** Emits every bucket of one window, whole, as its state and the reading log describe it. */
  private void emit(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final long outputTimestamp) {
    final long closedAt = context.currentSystemTimeMs();
    final WindowState state = windows.get(granularity).get(series, start);
    final List<Measurement> measurements =
        readings.between(series, start, granularity.windowEnd(start));
    for (final ClosedBucket bucket :
        ClosedBucket.ofWindow(
            series,
            granularity,
            start,
            state.stats(),
            measurements,
            state.revision(),
            maxMeasurements)) {
      context.forward(
          new Record<String, AggregatorOutput>(
              BucketKey.of(bucket),
              new AggregatorOutput.Closed(bucket),
              outputTimestamp,
              new RecordHeaders().add(BucketHeaders.closedAt(closedAt))));
      metrics.bucketEmitted(granularity.label());
    }
  }

  /** Forgets the windows, and the readings, that no reading can change any more. */
  private void expire(final SeriesKey series, final long watermark) {
    final long changeable = watermark - graceMillis - horizonMillis;
    for (final Granularity granularity : plan.granularities()) {
      final long size = granularity.sizeMillis();
      windows.get(granularity).deleteUpTo(series, Math.floorDiv(changeable - size, size) * size);
    }
    // A reading is needed while any window holding it can change; none ends after ts + coarsest.
    readings.deleteBefore(series, changeable - coarsestMillis + 1);
  }

  private void closeIdleSeries(final long wallClock) {
    final Iterator<Map.Entry<SeriesKey, Activity>> entries = activity.entrySet().iterator();
    while (entries.hasNext()) {
      final Map.Entry<SeriesKey, Activity> entry = entries.next();
      final Activity seen = entry.getValue();
      if (wallClock < seen.nextIdleCheck) {
        continue;
      }
      final SeriesKey series = entry.getKey();
      long watermark = watermark(series);
      if (wallClock > watermark) {
        final long latestClose = closeWindows(series, watermark, wallClock, wallClock);
        if (latestClose > watermark) {
          // Closed windows must never reopen: move the watermark just far enough to cover them.
          watermark = latestClose;
          setWatermark(series, watermark);
          expire(series, watermark);
        }
      }
      if (wallClock - seen.lastReadingWallClock >= horizonMillis) {
        forgetAll(series, watermark);
      }
      final Optional<Long> nextClose = nextClose(series, watermark);
      if (nextClose.isPresent()) {
        seen.nextIdleCheck = Math.max(wallClock + 1, nextClose.get());
      } else if (hasState(series)) {
        seen.nextIdleCheck = seen.lastReadingWallClock + Math.max(horizonMillis, idleTimeoutMillis);
      } else {
        entries.remove();
      }
    }
  }

  /** Wall-clock time at which the earliest open window of {@code series} can close, if any. */
  private Optional<Long> nextClose(final SeriesKey series, final long watermark) {
    Long earliest = null;
    for (final Granularity granularity : plan.granularities()) {
      for (final WindowStateStore.Window window :
          windows
              .get(granularity)
              .between(series, lastClosedStart(granularity, watermark), Long.MAX_VALUE - 1)) {
        if (!window.state().closed()) {
          final long close = granularity.windowEnd(window.start()) + graceMillis;
          earliest = earliest == null ? close : Math.min(earliest, close);
          break;
        }
      }
    }
    return Optional.ofNullable(earliest);
  }

  /**
   * A series silent for a whole horizon of wall-clock time: its closed windows go. The watermark
   * moves past their horizon, so a reading for one of them is too late rather than a new window.
   */
  private void forgetAll(final SeriesKey series, final long watermark) {
    long latestEnd = Long.MIN_VALUE;
    for (final Map.Entry<Granularity, WindowStateStore> store : windows.entrySet()) {
      final long end = store.getValue().latestStart(series).orElse(Long.MIN_VALUE);
      if (end != Long.MIN_VALUE) {
        latestEnd = Math.max(latestEnd, store.getKey().windowEnd(end));
      }
    }
    if (latestEnd == Long.MIN_VALUE) {
      return;
    }
    final long forgotten = Math.max(watermark, latestEnd + graceMillis + horizonMillis);
    if (nextClose(series, watermark).isEmpty()) {
      setWatermark(series, forgotten);
      expire(series, forgotten);
    }
  }

  private boolean hasState(final SeriesKey series) {
    return windows.values().stream().anyMatch(store -> store.latestStart(series).isPresent());
  }

  private void openWindowsChanged(final long delta) {
    openWindows += delta;
    metrics.openBucketsChanged(delta);
  }

  /** The task moves away or stops: its open windows no longer count on this instance. */
  @Override
  public void close() {
    metrics.openBucketsChanged(-openWindows);
    openWindows = 0;
  }

  private long watermark(final SeriesKey series) {
    return watermark(watermarkKey(series));
  }

  private long watermark(final Bytes watermarkKey) {
    final Long stored = watermarks.get(watermarkKey);
    return stored == null ? Long.MIN_VALUE : stored;
  }

  private void setWatermark(final SeriesKey series, final long watermark) {
    watermarks.put(watermarkKey(series), watermark);
  }

  private Bytes watermarkKey(final SeriesKey series) {
    return Bytes.wrap(seriesSerde.serializer().serialize(null, series));
  }
}
