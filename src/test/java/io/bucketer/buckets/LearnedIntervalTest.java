package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LearnedIntervalTest {

  private static final long TEN = 1_748_772_000_000L;

  /** The two hours of 12 readings: only their typical intervals tell them apart. */
  @Test
  void shouldTellASensorDownForMostOfTheHourFromASlowOne() {
    final List<Measurement> fiveSecondsThenDown = new ArrayList<>();
    final List<Measurement> everyFiveMinutes = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      fiveSecondsThenDown.add(new Measurement(TEN + i * 5_000L, i));
      everyFiveMinutes.add(new Measurement(TEN + i * 300_000L, i));
    }

    assertThat(LearnedInterval.of(null, fiveSecondsThenDown)).isEqualTo(5_000L);
    assertThat(LearnedInterval.of(null, everyFiveMinutes)).isEqualTo(300_000L);
  }

  @Test
  void shouldTakeTheMedianSoThatOneLongSilenceDoesNotStretchIt() {
    final List<Measurement> readings =
        List.of(
            new Measurement(TEN, 1),
            new Measurement(TEN + 1_000, 2),
            new Measurement(TEN + 3_000, 3),
            new Measurement(TEN + 2_000_000, 4),
            new Measurement(TEN + 2_001_000, 5));

    // intervals 1 s, 2 s, 1997 s, 1 s: sorted 1, 1, 2, 1997; the lower middle of four
    assertThat(LearnedInterval.of(null, readings)).isEqualTo(1_000L);
    // with the reading carried in 4 s before: 4, 1, 2, 1997, 1 → 1, 1, 2, 4, 1997
    assertThat(LearnedInterval.of(new Measurement(TEN - 4_000, 0), readings)).isEqualTo(2_000L);
  }

  @Test
  void shouldLearnFromTheReadingCarriedInWhenTheWindowHasOneReading() {
    final List<Measurement> one = List.of(new Measurement(TEN + 30_000, 1));

    assertThat(LearnedInterval.of(null, one)).isNull();
    assertThat(LearnedInterval.of(null, List.of())).isNull();
    assertThat(LearnedInterval.of(new Measurement(TEN - 30_000, 0), one)).isEqualTo(60_000L);
  }
}
