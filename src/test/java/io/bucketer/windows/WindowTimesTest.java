package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.RollupPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of time alone: when windows close and when readings are past the horizon. */
class WindowTimesTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity NINETY_SECONDS = Granularity.parse("90s");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final long GRACE = 10_000;
  private static final long HORIZON = Duration.ofHours(2).toMillis();

  private static WindowTimes timesOf(final Granularity... granularities) {
    return new WindowTimes(
        new RollupPlan(List.of(granularities)),
        Duration.ofMillis(GRACE),
        Duration.ofMillis(HORIZON));
  }

  @Test
  void shouldCloseAWindowOnceTheClockReachesItsEndPlusGrace() {
    final WindowTimes times = timesOf(MINUTE, HOUR);

    assertThat(times.closesAt(MINUTE, TEN)).isEqualTo(TEN + 60_000 + GRACE);
    assertThat(times.isClosed(MINUTE, TEN, TEN + 60_000 + GRACE - 1)).isFalse();
    assertThat(times.isClosed(MINUTE, TEN, TEN + 60_000 + GRACE)).isTrue();
    assertThat(times.isClosed(MINUTE, TEN, Long.MIN_VALUE)).isFalse();
  }

  @Test
  void shouldFindTheLatestClosedWindowAtAClock() {
    final WindowTimes times = timesOf(MINUTE, HOUR);

    assertThat(times.lastClosedStart(MINUTE, TEN + 60_000 + GRACE - 1)).isEqualTo(TEN - 60_000);
    assertThat(times.lastClosedStart(MINUTE, TEN + 60_000 + GRACE)).isEqualTo(TEN);
    assertThat(times.lastClosedStart(HOUR, TEN + 3_600_000 + GRACE)).isEqualTo(TEN);
    // before the epoch too: windows start at multiples of their size, rounding down
    assertThat(times.lastClosedStart(MINUTE, -1)).isEqualTo(-120_000);
    assertThat(times.lastClosedStart(MINUTE, Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void shouldBoundTheStartOfASeriesWindowsByTheWindowOfItsClock() {
    final WindowTimes times = timesOf(MINUTE, HOUR);

    assertThat(times.latestPossibleStart(MINUTE, TEN + 59_999)).isEqualTo(TEN);
    assertThat(times.latestPossibleStart(MINUTE, TEN + 60_000)).isEqualTo(TEN + 60_000);
    assertThat(times.latestPossibleStart(HOUR, TEN + 60_000)).isEqualTo(TEN);
    // a clock no reading set bounds nothing
    assertThat(times.latestPossibleStart(MINUTE, Long.MIN_VALUE)).isGreaterThan(TEN + HORIZON);
  }

  @Test
  void shouldCallAReadingBeyondTheHorizonOnceTheWindowFedByItIsPastIt() {
    final WindowTimes times = timesOf(MINUTE, HOUR);
    final long minutePastHorizon = TEN + 60_000 + GRACE + HORIZON;

    assertThat(times.beyondHorizonAt(TEN + 60_000)).isEqualTo(minutePastHorizon);
    assertThat(times.isBeyondHorizon(TEN + 5_000, minutePastHorizon - 1)).isFalse();
    // the minute is fed by readings; the hour, rolled up from it, does not keep the reading
    assertThat(times.isBeyondHorizon(TEN + 5_000, minutePastHorizon)).isTrue();
    assertThat(times.isBeyondHorizon(TEN + 5_000, Long.MIN_VALUE)).isFalse();
    assertThat(times.changeable(minutePastHorizon)).isEqualTo(TEN + 60_000);
  }

  @Test
  void shouldJudgeTheHorizonByEveryGranularityFedByReadings() {
    // no finer granularity divides 90 s: its windows take readings too, and last longer here
    final WindowTimes times = timesOf(MINUTE, NINETY_SECONDS);
    final long reading = TEN + 5_000;
    final long minutePastHorizon = TEN + 60_000 + GRACE + HORIZON;

    assertThat(times.fedByReadings()).containsExactly(MINUTE, NINETY_SECONDS);
    assertThat(times.isBeyondHorizon(reading, minutePastHorizon)).isTrue();
    assertThat(times.isBeyondHorizon(reading + 60_000, minutePastHorizon)).isFalse();
  }

  @Test
  void shouldGiveAReadingToARolledUpWindowOnlyOnceItsSourceWindowHasClosed() {
    final WindowTimes times = timesOf(MINUTE, HOUR);
    final long reading = TEN + 5_000;
    final long minuteCloses = TEN + 60_000 + GRACE;

    assertThat(times.rolledUpFrom(MINUTE)).containsExactly(HOUR);
    assertThat(times.receivesReadingDirectly(MINUTE, reading, minuteCloses)).isTrue();
    // open, the minute will roll the reading up into the hour when it closes
    assertThat(times.receivesReadingDirectly(HOUR, reading, minuteCloses - 1)).isFalse();
    // closed, the minute has been rolled up already: the hour takes the late reading itself
    assertThat(times.receivesReadingDirectly(HOUR, reading, minuteCloses)).isTrue();
  }
}
