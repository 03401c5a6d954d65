package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandoverTest {

  private static final long T = Instant.parse("2026-12-05T08:00:00Z").toEpochMilli();
  private static final long LATE_UNTIL = Instant.parse("2026-12-06T08:00:10Z").toEpochMilli();
  private static final Handover OLD = new Handover(Handover.Side.BEFORE, T, LATE_UNTIL);
  private static final Handover NEW = new Handover(Handover.Side.FROM, T, LATE_UNTIL);

  @Test
  void shouldGiveEachReadingToExactlyOneLayout() {
    final long[][] cases = {
      // reading, record
      {T - 1, T - 1}, // before the handover: the old layout's
      {T - 60_000, T + 5_000}, // late, written after the handover: still the old layout's
      {T - 60_000, LATE_UNTIL - 1},
      {T - 60_000, LATE_UNTIL}, // written once the old layout's late readings ended: the new's
      {T, T - 1_000}, // from the handover on, whenever written: the new layout's
      {T + 3_600_000, LATE_UNTIL + 1},
    };
    final boolean[] oldTakes = {true, true, true, false, false, false};
    for (int i = 0; i < cases.length; i++) {
      final long reading = cases[i][0];
      final long record = cases[i][1];
      assertThat(OLD.takesReading(reading, record)).as("case %d", i).isEqualTo(oldTakes[i]);
      assertThat(NEW.takesReading(reading, record)).as("case %d", i).isEqualTo(!oldTakes[i]);
      assertThat(Handover.NONE.takesReading(reading, record)).isTrue();
    }
  }

  @Test
  void shouldGiveEachRejectedRecordToExactlyOneLayoutByTheRecordsTime() {
    assertThat(OLD.takesRejectionOf(T - 1)).isTrue();
    assertThat(NEW.takesRejectionOf(T - 1)).isFalse();
    assertThat(OLD.takesRejectionOf(T)).isFalse();
    assertThat(NEW.takesRejectionOf(T)).isTrue();
    assertThat(Handover.NONE.takesRejectionOf(T)).isTrue();
  }

  @Test
  void shouldCallTooLateInTheNewLayoutOnlyWhatPrecedesIt() {
    assertThat(NEW.precedesThisLayout(T - 1)).isTrue();
    assertThat(NEW.precedesThisLayout(T)).isFalse();
    assertThat(OLD.precedesThisLayout(T - 1)).isFalse();
    assertThat(Handover.NONE.precedesThisLayout(Long.MIN_VALUE)).isFalse();
    assertThat(NEW.tooLateHere()).contains("2026-12-05T08:00:00Z").contains("2026-12-06T08:00:10Z");
  }

  @Test
  void shouldPlaceAHandoverWhereNoWindowIsSplit() {
    final List<Granularity> minuteAndHour = Granularity.parseList("1m,1h");
    assertThat(Handover.splitBy(T, minuteAndHour)).isEmpty();
    assertThat(Handover.splitBy(T + 60_000, minuteAndHour))
        .extracting(Granularity::label)
        .containsExactly("1h");
    assertThat(Handover.firstInstantAtOrAfter(T + 1, minuteAndHour)).isEqualTo(T + 3_600_000);
    assertThat(Handover.firstInstantAtOrAfter(T, minuteAndHour)).isEqualTo(T);
    // 7 minutes and an hour split nothing only every 7 hours
    final List<Granularity> odd = Granularity.parseList("7m,1h");
    final long next = Handover.firstInstantAtOrAfter(T + 1, odd);
    assertThat(Handover.splitBy(next, odd)).isEmpty();
    assertThat(next % (7 * 3_600_000L)).isZero();
    assertThat(next - T).isPositive().isLessThanOrEqualTo(7 * 3_600_000L);
  }

  @Test
  void shouldRefuseLateReadingsEndingBeforeTheHandover() {
    assertThatThrownBy(() -> new Handover(Handover.Side.FROM, T, T - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("before the handover");
  }
}
