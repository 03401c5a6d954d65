package io.bucketer.windows;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.StatsFields;
import io.bucketer.buckets.WindowQuality;

/**
 * A window's state as values in fields, written over in place: what the window cache ({@link
 * WriteBehindWindows}) holds of a window instead of the {@link WindowState} a reading made.
 *
 * <p><b>Why.</b> At live traffic each reading makes its window's next state, a graph of five
 * objects, and that state was held until the series' next reading, a second later. A second is
 * longer than the young generation's period at 100,000 readings a second, so every reading's state
 * was promoted to the old generation and collected there: a third of the processor's time went to
 * the collector. Copied into fields here, the state a reading makes dies young, and what the cache
 * holds is written over, not replaced.
 *
 * <p>The readings are not copied: {@link #tail} keeps a run on the tail's arrays and {@link
 * #tailSize} how much of them the window reads. A run's arrays are only ever appended to in place,
 * so the readings up to that length stay as they were (see {@link ReadingRun}).
 *
 * <p><b>References are written only when they change.</b> A cached window lives in the old
 * generation, and the collector's write barrier marks the card of every reference written into it,
 * the same reference or not; each young collection then scans every marked card. Written at every
 * reading and every commit, the quality and the tail's arrays marked the card of nearly every
 * window a live fleet touched between two young collections. Written only when they change, at
 * 100,000 live sensors: each young collection's pause a sixth shorter (docs/benchmarks.md).
 *
 * <p>Not thread-safe: its owner confines it, or guards it.
 */
final class WindowValues implements StatsFields {

  private long count;
  private double sum;
  private double min;
  private double max;
  private long firstTimestamp;
  private double firstValue;
  private long lastTimestamp;
  private double lastValue;
  private double shift;
  private double shiftedMean;
  private double m2;
  private boolean hasUtcOffset;
  private int utcOffsetMinutes;
  private boolean closed;
  private int revision;
  private int sealedRuns;
  private ReadingRun tail = ReadingRun.EMPTY;
  private int tailSize;
  private WindowQuality quality;

  /** Takes the values of {@code state}. */
  void set(final WindowState state) {
    final BucketStats stats = state.stats();
    count = stats.count();
    sum = stats.sum();
    min = stats.min();
    max = stats.max();
    firstTimestamp = stats.first().timestamp();
    firstValue = stats.first().value();
    lastTimestamp = stats.last().timestamp();
    lastValue = stats.last().value();
    shift = stats.shift();
    shiftedMean = stats.shiftedMean();
    m2 = stats.m2();
    hasUtcOffset = stats.utcOffsetMinutes() != null;
    utcOffsetMinutes = hasUtcOffset ? stats.utcOffsetMinutes() : 0;
    closed = state.closed();
    revision = state.revision();
    sealedRuns = state.sealedRuns();
    if (!tail.sharesArraysWith(state.tail())) {
      tail = state.tail(); // a new array a few times a window: kept for its arrays only
    }
    tailSize = state.tail().size();
    if (quality != state.quality()) {
      quality = state.quality(); // see the class comment: a reference written only when it changes
    }
  }

  /** Takes the values of {@code other}. */
  void set(final WindowValues other) {
    count = other.count;
    sum = other.sum;
    min = other.min;
    max = other.max;
    firstTimestamp = other.firstTimestamp;
    firstValue = other.firstValue;
    lastTimestamp = other.lastTimestamp;
    lastValue = other.lastValue;
    shift = other.shift;
    shiftedMean = other.shiftedMean;
    m2 = other.m2;
    hasUtcOffset = other.hasUtcOffset;
    utcOffsetMinutes = other.utcOffsetMinutes;
    closed = other.closed;
    revision = other.revision;
    sealedRuns = other.sealedRuns;
    if (tail != other.tail) {
      tail = other.tail;
    }
    tailSize = other.tailSize;
    if (quality != other.quality) {
      quality = other.quality;
    }
  }

  /** A state equal to the one last set, made anew: its user may keep it, it never changes. */
  WindowState state() {
    final BucketStats stats =
        new BucketStats(
            count,
            sum,
            min,
            max,
            new Measurement(firstTimestamp, firstValue),
            new Measurement(lastTimestamp, lastValue),
            shift,
            shiftedMean,
            m2,
            hasUtcOffset ? Integer.valueOf(utcOffsetMinutes) : null);
    return new WindowState(stats, closed, revision, sealedRuns, tail(), quality);
  }

  boolean closed() {
    return closed;
  }

  int revision() {
    return revision;
  }

  int sealedRuns() {
    return sealedRuns;
  }

  WindowQuality quality() {
    return quality;
  }

  /** The arrays the window's unsealed readings are on; {@link #tailSize} of them are its own. */
  ReadingRun tailArrays() {
    return tail;
  }

  int tailSize() {
    return tailSize;
  }

  /** The window's unsealed readings. */
  ReadingRun tail() {
    return tail.prefix(tailSize);
  }

  @Override
  public long count() {
    return count;
  }

  @Override
  public double sum() {
    return sum;
  }

  @Override
  public double min() {
    return min;
  }

  @Override
  public double max() {
    return max;
  }

  @Override
  public long firstTimestamp() {
    return firstTimestamp;
  }

  @Override
  public double firstValue() {
    return firstValue;
  }

  @Override
  public long lastTimestamp() {
    return lastTimestamp;
  }

  @Override
  public double lastValue() {
    return lastValue;
  }

  @Override
  public double shift() {
    return shift;
  }

  @Override
  public double shiftedMean() {
    return shiftedMean;
  }

  @Override
  public double m2() {
    return m2;
  }

  @Override
  public Integer utcOffsetMinutes() {
    return hasUtcOffset ? Integer.valueOf(utcOffsetMinutes) : null;
  }
}
