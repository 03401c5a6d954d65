package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SampleScheduleTest {

  /**
   * Two minutes of warm-up and three measured, sampled every 15 s: the first sample past the
   * warm-up is due at 2 min and the last at 5 min, three whole minutes apart.
   */
  @Test
  void shouldDueTheSamplesThatBoundTheStretchItsLengthApart() {
    final SampleSchedule schedule =
        new SampleSchedule(0, Duration.ofSeconds(15), Duration.ofMinutes(5));

    assertThat(schedule.samples()).isEqualTo(20);
    assertThat(schedule.dueAt(0)).isEqualTo(Duration.ofSeconds(15));
    assertThat(schedule.dueAt(7)).isEqualTo(Duration.ofMinutes(2));
    assertThat(schedule.dueAt(schedule.samples() - 1)).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void shouldTakeALastSampleAtOrJustAfterTheEndWhenTheIntervalDoesNotDivideIt() {
    final SampleSchedule schedule =
        new SampleSchedule(0, Duration.ofSeconds(7), Duration.ofSeconds(30));

    assertThat(schedule.samples()).isEqualTo(5);
    assertThat(schedule.dueAt(schedule.samples() - 1)).isEqualTo(Duration.ofSeconds(35));
  }

  /** The schedule counts from its start: a sample read late does not push the next ones back. */
  @Test
  void shouldReturnAtOnceForASampleAlreadyDue() throws InterruptedException {
    final SampleSchedule schedule =
        new SampleSchedule(
            System.nanoTime() - Duration.ofMinutes(1).toNanos(),
            Duration.ofSeconds(1),
            Duration.ofSeconds(3));

    for (int i = 0; i < 3; i++) {
      assertThat(schedule.hasNext()).isTrue();
      assertThat(schedule.awaitNext()).isGreaterThanOrEqualTo(Duration.ofMinutes(1));
    }
    assertThat(schedule.hasNext()).isFalse();
  }

  @Test
  void shouldRefuseAnIntervalThatIsNotPositive() {
    assertThatThrownBy(() -> new SampleSchedule(0, Duration.ZERO, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
