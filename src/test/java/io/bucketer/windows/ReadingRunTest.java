package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.Measurement;
import java.util.SplittableRandom;
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

  @Test
  void shouldGiveBackTimestampsFarApartExactly() {
    final long[] times = {Long.MIN_VALUE, -1L, 0L, 1L << 40, Long.MAX_VALUE};
    ReadingRun appended = ReadingRun.EMPTY;
    for (int i = 0; i < times.length; i++) {
      appended = appended.with(new Measurement(times[i], i));
    }
    final ReadingRun taken = ReadingRun.of(times.clone(), new double[] {0, 1, 2, 3, 4});

    for (final ReadingRun run : new ReadingRun[] {appended, taken}) {
      for (int i = 0; i < times.length; i++) {
        assertThat(run.timestamp(i)).isEqualTo(times[i]);
        assertThat(run.indexOf(times[i])).isEqualTo(i);
      }
      assertThat(run.indexOf(2L)).isEqualTo(-1);
    }
    assertThat(appended.startsWith(taken)).isTrue();
    assertThat(taken.startsWith(appended)).isTrue();
  }

  @Test
  void shouldKeepReadingsWithinAnIntOfEachOtherAcrossTheWrapOfTheirDifference() {
    final long base = Long.MAX_VALUE - 5;
    final ReadingRun run =
        ReadingRun.of(new Measurement(base, 1.0))
            .with(new Measurement(Long.MAX_VALUE - 1, 2.0))
            .with(new Measurement(base - 1_000, 3.0));

    assertThat(run.measurements())
        .containsExactly(
            new Measurement(base, 1.0),
            new Measurement(Long.MAX_VALUE - 1, 2.0),
            new Measurement(base - 1_000, 3.0));
    assertThat(run.indexOf(Long.MIN_VALUE)).isEqualTo(-1); // an offset of 6 once wrapped
    assertThat(run.indexOf(base - 1_000)).isEqualTo(2);
  }

  @Test
  void shouldMatchAnEarlierRunReadingForReadingWhenAWideTimestampMovedItToOtherArrays() {
    final ReadingRun narrow =
        ReadingRun.of(new Measurement(1_000, 1.0)).with(new Measurement(2_000, 2.0));
    final ReadingRun widened = narrow.with(new Measurement(1_000 + (1L << 33), 3.0));

    assertThat(widened.sharesArraysWith(narrow)).isFalse();
    assertThat(widened.startsWith(narrow)).isTrue();
    assertThat(widened.timestamp(2)).isEqualTo(1_000 + (1L << 33));
    assertThat(widened.withValueAt(0, 9.0).measurements())
        .containsExactly(
            new Measurement(1_000, 9.0),
            new Measurement(2_000, 2.0),
            new Measurement(1_000 + (1L << 33), 3.0));
  }

  @Test
  void shouldHoldValuesOfAFewDecimalPlacesInThousandthsAndGiveThemBackToTheBit() {
    ReadingRun run = ReadingRun.EMPTY;
    final double[] values = {21.37, -4.5, 0, 1_000_000.125, 2_147_483.647, -2_147_483.648, 0.001};
    for (int i = 0; i < values.length; i++) {
      run = run.with(i, values[i]);
    }
    assertThat(run.valuesInThousandths()).isTrue();
    for (int i = 0; i < values.length; i++) {
      assertThat(Double.doubleToRawLongBits(run.value(i)))
          .as("value %s", values[i])
          .isEqualTo(Double.doubleToRawLongBits(values[i]));
    }
  }

  @Test
  void shouldMoveToWholeValuesAtTheFirstThatIsNotThousandthsLeavingTheEarlierRunAsItWas() {
    final double[] notThousandths = {
      0.0001, 0.1 + 0.2, -0.0, Double.NaN, Double.POSITIVE_INFINITY, 2_147_483.648, 1e300
    };
    for (final double odd : notThousandths) {
      final ReadingRun before = ReadingRun.EMPTY.with(1, 21.37).with(2, 21.5);
      final ReadingRun after = before.with(3, odd).with(4, 22.0);

      assertThat(ReadingRun.thousandthsOf(odd)).as("%s", odd).isEqualTo(Long.MIN_VALUE);
      assertThat(after.valuesInThousandths()).as("%s", odd).isFalse();
      assertThat(Double.doubleToRawLongBits(after.value(2)))
          .as("%s", odd)
          .isEqualTo(Double.doubleToRawLongBits(odd));
      assertThat(after.measurements())
          .as("%s", odd)
          .startsWith(new Measurement(1, 21.37), new Measurement(2, 21.5))
          .endsWith(new Measurement(4, 22.0));
      assertThat(before.valuesInThousandths()).isTrue();
      assertThat(before.measurements())
          .containsExactly(new Measurement(1, 21.37), new Measurement(2, 21.5));
      assertThat(after.startsWith(before)).isTrue();
    }
  }

  @Test
  void shouldGiveBackAnyValueToTheBitWhicheverArraysHoldIt() {
    final SplittableRandom random = new SplittableRandom(45);
    ReadingRun run = ReadingRun.EMPTY;
    final double[] values = new double[2_000];
    for (int i = 0; i < values.length; i++) {
      values[i] =
          switch (random.nextInt(4)) {
            case 0 -> Double.longBitsToDouble(random.nextLong()); // any bits at all
            case 1 -> random.nextInt(-100_000, 100_000) / 100.0; // two decimal places
            case 2 -> random.nextInt(-1_000, 1_000); // whole numbers
            default -> random.nextDouble(-50, 50);
          };
      run = run.with(i, values[i]);
    }
    for (int i = 0; i < values.length; i++) {
      assertThat(Double.doubleToRawLongBits(run.value(i)))
          .isEqualTo(Double.doubleToRawLongBits(values[i]));
    }
  }

  @Test
  void shouldReplaceAValueThatIsNotThousandthsInACopyWithWholeValues() {
    final ReadingRun two = ReadingRun.EMPTY.with(5, 1.25).with(7, 2.0);

    final ReadingRun replaced = two.withValueAt(1, Math.PI);

    assertThat(replaced.measurements())
        .containsExactly(new Measurement(5, 1.25), new Measurement(7, Math.PI));
    assertThat(replaced.valuesInThousandths()).isFalse();
    assertThat(two.value(1)).isEqualTo(2.0);
  }
}
