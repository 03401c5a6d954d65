package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeightings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the wall clock does to a quiet series, over sorted maps. */
class QuietSeriesTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final long GRACE = 10_000;
  private static final long IDLE_TIMEOUT = 30_000;
  private static final long HORIZON = Duration.ofHours(2).toMillis();
  private static final long LAST_READING = TEN + 3_600_000;

  private final InMemoryWindowStore store = new InMemoryWindowStore();
  private final QuietSeries quietSeries;

  QuietSeriesTest() {
    final WindowTimes times =
        new WindowTimes(
            new RollupPlan(List.of(MINUTE, HOUR)),
            Duration.ofMillis(GRACE),
            Duration.ofMillis(HORIZON));
    quietSeries =
        new QuietSeries(
            store,
            times,
            new WindowExpiry(store, times, TimeWeightings.DEFAULT),
            Duration.ofMillis(IDLE_TIMEOUT),
            Duration.ofMillis(HORIZON));
  }

  private void window(final Granularity granularity, final long start, final boolean closed) {
    final WindowState open = WindowState.open(BucketStats.of(new Measurement(start, 1.0), null));
    store.put(SERIES, granularity, start, closed ? open.close() : open);
  }

  private static SeriesClock clockAt(final long clock) {
    return new SeriesClock(clock, LAST_READING, LAST_READING + IDLE_TIMEOUT);
  }

  @Test
  void shouldLookAgainWhenTheEarliestOpenWindowCanClose() {
    window(MINUTE, TEN, false);
    window(HOUR, TEN, false);
    final SeriesClock seen = clockAt(TEN + 30_000);

    assertThat(quietSeries.scheduleNextCheck(SERIES, seen, TEN + 40_000)).isTrue();
    // the minute's end + grace, before the hour's
    assertThat(seen.nextIdleCheck).isEqualTo(TEN + 60_000 + GRACE);

    // a wall clock already past it: at the next look, not in the past
    quietSeries.scheduleNextCheck(SERIES, seen, LAST_READING);
    assertThat(seen.nextIdleCheck).isEqualTo(LAST_READING + 1);
  }

  @Test
  void shouldLookAgainOnceSilentForAHorizonWhenNoWindowIsOpen() {
    window(MINUTE, TEN, true);
    final SeriesClock seen = clockAt(TEN + 60_000 + GRACE);

    assertThat(quietSeries.scheduleNextCheck(SERIES, seen, LAST_READING + 60_000)).isTrue();

    assertThat(seen.nextIdleCheck).isEqualTo(LAST_READING + HORIZON);
  }

  @Test
  void shouldNeedNoLookAtASeriesWithoutWindows() {
    assertThat(quietSeries.scheduleNextCheck(SERIES, clockAt(TEN), LAST_READING)).isFalse();
  }

  @Test
  void shouldMoveTheClockOfASeriesSilentForAWholeHorizonPastItsWindowsHorizon() {
    window(MINUTE, TEN, true);
    window(HOUR, TEN, true);
    final SeriesClock seen = clockAt(TEN + 3_600_000 + GRACE);

    quietSeries.forgetIfSilent(SERIES, seen, LAST_READING + HORIZON - 1);
    assertThat(seen.clock).isEqualTo(TEN + 3_600_000 + GRACE);
    assertThat(store.storedClock(SERIES)).isEmpty();

    quietSeries.forgetIfSilent(SERIES, seen, LAST_READING + HORIZON);

    final long pastTheHoursHorizon = TEN + 3_600_000 + GRACE + HORIZON;
    assertThat(seen.clock).isEqualTo(pastTheHoursHorizon);
    assertThat(store.storedClock(SERIES)).hasValue(pastTheHoursHorizon);
    assertThat(store.entries()).isZero();
  }

  @Test
  void shouldNotForgetASeriesWhoseWindowIsStillOpen() {
    window(MINUTE, TEN, false);
    final SeriesClock seen = clockAt(TEN + 30_000);

    quietSeries.forgetIfSilent(SERIES, seen, LAST_READING + HORIZON);

    assertThat(seen.clock).isEqualTo(TEN + 30_000);
    assertThat(store.entries()).isEqualTo(1);
  }
}
