package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.Measurement;
import org.junit.jupiter.api.Test;

/** A run appends in place while it can, and never changes what an earlier run holds. */
class ReadingRunTest {

  @Test
  void shouldKeepEveryReadingInArrivalOrder() {
    ReadingRun run = ReadingRun.EMPTY;
    for (int i = 0; i < 100; i++) {
      run = run.with(new Measurement(1_000L * (100 - i), i));
    }

    assertThat(run.size()).isEqualTo(100);
    assertThat(run.timestamp(0)).isEqualTo(100_000);
    assertThat(run.value(99)).isEqualTo(99.0);
    assertThat(run.capacity()).isBetween(100, 200);
  }

  @Test
  void shouldLeaveAnEarlierRunUnchangedWhenItIsAppendedToAgain() {
    final ReadingRun two = ReadingRun.of(new Measurement(1, 1.0)).with(new Measurement(2, 2.0));
    final ReadingRun three = two.with(new Measurement(3, 3.0));

    final ReadingRun branch = two.with(new Measurement(4, 4.0));

    assertThat(two.measurements())
        .containsExactly(new Measurement(1, 1.0), new Measurement(2, 2.0));
    assertThat(three.measurements()).last().isEqualTo(new Measurement(3, 3.0));
    assertThat(branch.measurements()).last().isEqualTo(new Measurement(4, 4.0));
    assertThat(branch.size()).isEqualTo(3);
  }

  @Test
  void shouldFindTheFirstReadingAtATimeAndOnlyWithinItsOwnEnd() {
    final ReadingRun two = ReadingRun.of(new Measurement(5, 1.0)).with(new Measurement(7, 2.0));
    final ReadingRun longer = two.with(new Measurement(9, 3.0)).with(new Measurement(7, 4.0));

    assertThat(longer.indexOf(7)).isEqualTo(1);
    assertThat(longer.indexOf(9)).isEqualTo(2);
    assertThat(two.indexOf(9)).isEqualTo(-1); // in the shared arrays, past this run's end
    assertThat(two.indexOf(6)).isEqualTo(-1);
  }

  @Test
  void shouldReplaceAValueInACopyLeavingTheRunAndItsSuccessorsAsTheyWere() {
    final ReadingRun two = ReadingRun.of(new Measurement(5, 1.0)).with(new Measurement(7, 2.0));
    final ReadingRun three = two.with(new Measurement(9, 3.0));

    final ReadingRun replaced = two.withValueAt(0, 10.0);

    assertThat(replaced.measurements())
        .containsExactly(new Measurement(5, 10.0), new Measurement(7, 2.0));
    assertThat(two.value(0)).isEqualTo(1.0);
    assertThat(three.value(0)).isEqualTo(1.0);
    assertThatThrownBy(() -> two.withValueAt(2, 0.0)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void shouldNotReadPastItsOwnEndIntoALongerRunsReadings() {
    final ReadingRun one = ReadingRun.of(new Measurement(1, 1.0));
    one.with(new Measurement(2, 2.0));

    assertThatThrownBy(() -> one.timestamp(1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(one.measurements()).containsExactly(new Measurement(1, 1.0));
  }
}
