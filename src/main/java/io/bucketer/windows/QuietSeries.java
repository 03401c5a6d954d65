package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.time.Duration;
import java.util.Optional;

/**
 * What the wall clock does to a quiet series besides closing its windows: stores the clock it moves
 * the series to, forgets a series silent for a whole horizon, and says when to look at the series
 * next. The lifecycle's {@link WindowLifecycle#closeIdleSeries} does these for each series due a
 * look; none runs per reading, and each reads the series' windows of every granularity.
 */
final class QuietSeries {

  private final WindowStore store;
  private final WindowTimes times;
  private final WindowExpiry expiry;
  private final long idleTimeoutMillis;
  private final long horizonMillis;

  QuietSeries(
      final WindowStore store,
      final WindowTimes times,
      final WindowExpiry expiry,
      final Duration idleTimeout,
      final Duration latenessHorizon) {
    this.store = store;
    this.times = times;
    this.expiry = expiry;
    this.idleTimeoutMillis = idleTimeout.toMillis();
    this.horizonMillis = latenessHorizon.toMillis();
  }

  /**
   * Moves the clock of {@code series} to a time that no reading of it holds: so it is stored, as
   * the windows cannot tell it after a restart; and what it settles expires.
   */
  void moveClock(final SeriesKey series, final SeriesClock seen, final long clock) {
    seen.clock = clock;
    store.storeClock(series, clock);
    seen.expiredAt = expiry.expire(series, seen.expiredAt, clock);
  }

  /**
   * A series silent for a whole horizon of wall-clock time: its closed windows go. The clock moves
   * past their horizon, so a reading for one of them is too late rather than a new window.
   */
  void forgetIfSilent(final SeriesKey series, final SeriesClock seen, final long wallClock) {
    if (wallClock - seen.lastReadingWallClock >= horizonMillis) {
      forgetAll(series, seen);
    }
  }

  private void forgetAll(final SeriesKey series, final SeriesClock seen) {
    long latestEnd = Long.MIN_VALUE;
    for (final Granularity granularity : times.granularities()) {
      final var latest = store.latestStart(series, granularity);
      if (latest.isPresent()) {
        latestEnd = Math.max(latestEnd, granularity.windowEnd(latest.getAsLong()));
      }
    }
    if (latestEnd == Long.MIN_VALUE) {
      return;
    }
    if (nextClose(series, seen.clock).isEmpty()) {
      moveClock(series, seen, Math.max(seen.clock, times.beyondHorizonAt(latestEnd)));
    }
  }

  /**
   * Sets when to look at {@code series} next: when its earliest open window can close; with none
   * open, once it has been silent for a whole horizon, or the idle timeout if that is longer.
   *
   * @return false when the series holds no window any more: it needs no look until it sends again
   */
  boolean scheduleNextCheck(final SeriesKey series, final SeriesClock seen, final long wallClock) {
    final Optional<Long> nextClose = nextClose(series, seen.clock);
    if (nextClose.isPresent()) {
      seen.nextIdleCheck = Math.max(wallClock + 1, nextClose.get());
    } else if (hasState(series)) {
      seen.nextIdleCheck = seen.lastReadingWallClock + Math.max(horizonMillis, idleTimeoutMillis);
    } else {
      return false;
    }
    return true;
  }

  /**
   * Wall-clock time at which the earliest open window of {@code series} can close, if any. No
   * window starts after the window of the clock (each holds a reading at or before it, or the
   * rollup of one), so none is looked for beyond it; a range read to the series' end would run on
   * over the next series' tombstones ({@link WindowReader#startingAfter}).
   */
  private Optional<Long> nextClose(final SeriesKey series, final long clock) {
    Long earliest = null;
    for (final Granularity granularity : times.granularities()) {
      final long last = times.latestPossibleStart(granularity, clock);
      for (final WindowReader.Window window :
          store.startingAfter(
              series, granularity, times.lastClosedStart(granularity, clock), last)) {
        if (!window.state().closed()) {
          final long close = times.closesAt(granularity, window.start());
          earliest = earliest == null ? close : Math.min(earliest, close);
          break;
        }
      }
    }
    return Optional.ofNullable(earliest);
  }

  private boolean hasState(final SeriesKey series) {
    for (final Granularity granularity : times.granularities()) {
      if (store.latestStart(series, granularity).isPresent()) {
        return true;
      }
    }
    return false;
  }
}
