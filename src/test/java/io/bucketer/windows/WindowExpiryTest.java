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
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an expiry forgets, over sorted maps. */
class WindowExpiryTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity NINETY_SECONDS = Granularity.parse("90s");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final long GRACE = 10_000;
  private static final long HORIZON = Duration.ofMinutes(30).toMillis();

  private final InMemoryWindowStore store = new InMemoryWindowStore();

  /**
   * The expiry of {@code granularities} for a max gap of one millisecond: a reading at the last
   * instant of a minute may be carried into the next, so that minute is kept with it.
   */
  private WindowExpiry expiryOf(final Granularity... granularities) {
    return expiryOf(Duration.ofMillis(1), granularities);
  }

  private WindowExpiry expiryOf(final Duration maxGap, final Granularity... granularities) {
    return new WindowExpiry(
        store,
        new WindowTimes(
            new RollupPlan(List.of(granularities)),
            Duration.ofMillis(GRACE),
            Duration.ofMillis(HORIZON)),
        TimeWeightings.of(maxGap, Map.of()));
  }

  /** The clock at which no reading can change a window ending at {@code changeable} any more. */
  private static long clockSettling(final long changeable) {
    return changeable + GRACE + HORIZON;
  }

  /** A closed window of {@code granularity} at every start in {@code [from, to)}. */
  private void windows(final Granularity granularity, final long from, final long to) {
    windows(SERIES, granularity, from, to);
  }

  private void windows(
      final SeriesKey series, final Granularity granularity, final long from, final long to) {
    for (long start = from; start < to; start += granularity.sizeMillis()) {
      store.put(
          series,
          granularity,
          start,
          WindowState.open(BucketStats.of(new Measurement(start, 1.0), null)).close());
    }
  }

  private List<Long> startsOf(final Granularity granularity) {
    return store.range(SERIES, granularity, Long.MIN_VALUE, Long.MAX_VALUE).stream()
        .map(WindowReader.Window::start)
        .toList();
  }

  @Test
  void shouldKeepTheMinutesOfAnHourUntilTheHourIsSettled() {
    windows(MINUTE, TEN, TEN + 2 * 3_600_000);
    windows(HOUR, TEN, TEN + 2 * 3_600_000);

    // 11:30: the minutes of ten and the hour of ten are settled; the hour of eleven is not
    expiryOf(MINUTE, HOUR).expire(SERIES, Long.MIN_VALUE, clockSettling(TEN + 90 * 60_000));

    assertThat(startsOf(HOUR)).containsExactly(TEN + 3_600_000);
    // the minutes of eleven up to 11:30 are settled too, but the hour of eleven is emitted from
    // them, and from the reading 10:59 may carry in
    assertThat(startsOf(MINUTE)).hasSize(61).first().isEqualTo(TEN + 59 * 60_000);
  }

  @Test
  void shouldKeepAMinuteWhileAWindowFedByReadingsOverlappingItCanChange() {
    windows(MINUTE, TEN, TEN + 5 * 60_000);
    windows(NINETY_SECONDS, TEN, TEN + 5 * 60_000);

    // 10:02: the 90 s window of 10:01:30 can still change, and holds readings of the minute 10:01
    expiryOf(MINUTE, NINETY_SECONDS).expire(SERIES, Long.MIN_VALUE, clockSettling(TEN + 120_000));

    assertThat(startsOf(MINUTE).get(0)).isEqualTo(TEN + 60_000);
    assertThat(startsOf(NINETY_SECONDS).get(0)).isEqualTo(TEN + 90_000);
  }

  @Test
  void shouldForgetTheRunsSealedOffAMinuteWithIt() {
    windows(MINUTE, TEN, TEN + 3 * 60_000);
    for (long start = TEN; start < TEN + 3 * 60_000; start += 60_000) {
      store.putSealedRun(SERIES, start, 0, ReadingRun.of(new Measurement(start, 1.0)));
    }

    expiryOf(MINUTE).expire(SERIES, Long.MIN_VALUE, clockSettling(TEN + 120_000));

    // 10:01 stays with the 10:02 it may carry a reading into
    assertThat(startsOf(MINUTE)).containsExactly(TEN + 60_000, TEN + 120_000);
    assertThat(store.sealedRuns(SERIES, Long.MIN_VALUE, Long.MAX_VALUE))
        .extracting(WindowReader.SealedRun::windowStart)
        .containsExactly(TEN + 60_000, TEN + 120_000);
  }

  @Test
  void shouldStartEachExpiryWhereTheSeriesPreviousOneStopped() {
    windows(MINUTE, TEN, TEN + 2 * 3_600_000);
    windows(HOUR, TEN, TEN + 2 * 3_600_000);
    final WindowExpiry expiry = expiryOf(MINUTE, HOUR);

    final long first = expiry.expire(SERIES, Long.MIN_VALUE, clockSettling(TEN + 30 * 60_000));
    final long second = expiry.expire(SERIES, first, clockSettling(TEN + 150 * 60_000));

    assertThat(first).isEqualTo(TEN + 30 * 60_000);
    assertThat(second).isEqualTo(TEN + 150 * 60_000);
    // only the first deleted from the series' first key: one range per granularity
    assertThat(store.deletionsFromTheStart).isEqualTo(2);
    // 11:59 may carry a reading into 12:00, which can still change
    assertThat(startsOf(MINUTE)).containsExactly(TEN + 119 * 60_000);
    assertThat(startsOf(HOUR)).isEmpty();
    // a clock behind the last expiry forgets nothing more, and keeps where that one stopped
    assertThat(expiry.expire(SERIES, second, clockSettling(TEN))).isEqualTo(second);
  }

  @Test
  void shouldKeepTheMinutesWhoseReadingsAWindowThatCanChangeMayCarryIn() {
    windows(MINUTE, TEN, TEN + 40 * 60_000);

    // 10:30 can still change; a reading after 10:25:00 holds into it under a 5 minute max gap
    expiryOf(Duration.ofMinutes(5), MINUTE)
        .expire(SERIES, Long.MIN_VALUE, clockSettling(TEN + 30 * 60_000));

    assertThat(startsOf(MINUTE)).hasSize(15).first().isEqualTo(TEN + 25 * 60_000);
  }

  @Test
  void shouldKeepEachSeriesMinutesForItsOwnMaxGap() {
    final SeriesKey door = new SeriesKey("s1", "door");
    windows(door, MINUTE, TEN, TEN + 40 * 60_000);
    final WindowExpiry expiry =
        new WindowExpiry(
            store,
            new WindowTimes(
                new RollupPlan(List.of(MINUTE)),
                Duration.ofMillis(GRACE),
                Duration.ofMillis(HORIZON)),
            TimeWeightings.of(Duration.ofMinutes(1), Map.of("door", Duration.ofMinutes(20))));

    expiry.expire(door, Long.MIN_VALUE, clockSettling(TEN + 30 * 60_000));

    // 10:30 can change, and a door reading after 10:10:00 holds into it for 20 minutes
    assertThat(store.range(door, MINUTE, Long.MIN_VALUE, Long.MAX_VALUE))
        .extracting(WindowReader.Window::start)
        .first()
        .isEqualTo(TEN + 10 * 60_000);
  }
}
