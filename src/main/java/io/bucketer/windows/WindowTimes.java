package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.RollupPlan;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * When the windows of each granularity close and when they are past the lateness horizon, judged on
 * a series' clock; and which granularities take a reading themselves and which are rolled up from
 * which. The lifecycle's settings and its {@link RollupPlan} as plain arithmetic and lookups, apart
 * from the store, so that the rules of time are stated once and can be tested alone.
 *
 * <p>A clock of {@code Long.MIN_VALUE} belongs to a series with no reading yet: no window is closed
 * at it and no reading is late for it.
 */
final class WindowTimes {

  private final List<Granularity> granularities;
  private final Granularity finest;
  // The plan's answers, looked up for every reading: computed once.
  private final List<Granularity> fedByReadings;
  private final Map<Granularity, Optional<Granularity>> sourceOf = new HashMap<>();
  private final Map<Granularity, List<Granularity>> rolledUpFrom = new HashMap<>();
  private final long graceMillis;
  private final long horizonMillis;

  WindowTimes(final RollupPlan plan, final Duration grace, final Duration latenessHorizon) {
    this.granularities = plan.granularities();
    this.finest = granularities.get(0);
    this.fedByReadings = plan.fedByReadings();
    for (final Granularity granularity : granularities) {
      sourceOf.put(granularity, plan.sourceOf(granularity));
      rolledUpFrom.put(granularity, plan.rolledUpFrom(granularity));
    }
    this.graceMillis = grace.toMillis();
    this.horizonMillis = latenessHorizon.toMillis();
  }

  /** All granularities, finest first: the order in which windows must be closed. */
  List<Granularity> granularities() {
    return granularities;
  }

  /** The granularity whose windows hold the readings. */
  Granularity finest() {
    return finest;
  }

  /** The granularities whose windows take readings themselves rather than rolled-up windows. */
  List<Granularity> fedByReadings() {
    return fedByReadings;
  }

  /** The granularity whose closed windows {@code granularity}'s are rolled up from, if any. */
  Optional<Granularity> sourceOf(final Granularity granularity) {
    return sourceOf.get(granularity);
  }

  /** The granularities whose windows are rolled up from the closed windows of {@code source}. */
  List<Granularity> rolledUpFrom(final Granularity source) {
    return rolledUpFrom.get(source);
  }

  /**
   * A granularity fed by readings always takes the reading itself. A rolled-up one takes it only
   * when the window of its source has already closed, and so already been rolled up into it;
   * otherwise the reading reaches it with that rollup.
   */
  boolean receivesReadingDirectly(
      final Granularity granularity, final long timestamp, final long clock) {
    final Optional<Granularity> source = sourceOf.get(granularity);
    return source.isEmpty() || isClosed(source.get(), source.get().windowStart(timestamp), clock);
  }

  /** The clock at which the window of {@code granularity} starting at {@code start} closes. */
  long closesAt(final Granularity granularity, final long start) {
    return granularity.windowEnd(start) + graceMillis;
  }

  /**
   * The latest start a window of {@code granularity} of a series whose clock is {@code clock} can
   * have: the start of the window that holds the clock, since each window holds a reading at or
   * before the clock, or the rollup of one. Unbounded for a clock no reading set.
   */
  long latestPossibleStart(final Granularity granularity, final long clock) {
    return clock == Long.MIN_VALUE ? Long.MAX_VALUE - 1 : granularity.windowStart(clock);
  }

  boolean isClosed(final Granularity granularity, final long start, final long clock) {
    return clock != Long.MIN_VALUE && closesAt(granularity, start) <= clock;
  }

  /** True when a window holding this reading was closed longer than the lateness horizon ago. */
  boolean isBeyondHorizon(final long timestamp, final long clock) {
    if (clock == Long.MIN_VALUE) {
      return false;
    }
    for (final Granularity granularity : fedByReadings) {
      final long end = granularity.windowEnd(granularity.windowStart(timestamp));
      if (beyondHorizonAt(end) <= clock) {
        return true;
      }
    }
    return false;
  }

  /** The clock at which a window ending at {@code end} is past the lateness horizon. */
  long beyondHorizonAt(final long end) {
    return end + graceMillis + horizonMillis;
  }

  /**
   * {@code clock} less grace and horizon: a window that ends at or before this time is past the
   * lateness horizon at {@code clock}, and no reading can change it any more.
   */
  long changeable(final long clock) {
    return clock - graceMillis - horizonMillis;
  }

  /** The start of the latest window of {@code granularity} that is closed at {@code clock}. */
  long lastClosedStart(final Granularity granularity, final long clock) {
    if (clock == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    final long size = granularity.sizeMillis();
    return Math.floorDiv(clock - graceMillis - size, size) * size;
  }
}
