package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

class BenchRoundsTest {

  /** A round with nothing but its close-to-visible p50, the one figure these tests read. */
  private static BenchResults round(final double p50) {
    return new BenchResults(
        null, null, null, null, null, null, null, null, null, p50, 0, 0, null, List.of(), List.of(),
        null);
  }

  private static BenchRounds rounds(final double... p50s) {
    return new BenchRounds(DoubleStream.of(p50s).mapToObj(BenchRoundsTest::round).toList());
  }

  @Test
  void shouldGiveTheMiddleOfAnOddNumberOfRoundsWithTheirRange() {
    final BenchRounds.Spread spread =
        rounds(300, 100, 240).spreadOf(BenchResults::latencyP50Millis);

    assertThat(spread).isEqualTo(new BenchRounds.Spread(240, 100, 300));
    assertThat(spread.relativeRange()).isEqualTo(200 / 240.0);
  }

  @Test
  void shouldAverageTheTwoMiddleValuesOfAnEvenNumber() {
    assertThat(rounds(4, 1, 2, 8).spreadOf(BenchResults::latencyP50Millis).median()).isEqualTo(3);
  }

  @Test
  void shouldLeaveOutRoundsThatDidNotRunARow() {
    final BenchRounds rounds = rounds(1, 2, 9);

    assertThat(
            rounds.spread(
                r ->
                    r.latencyP50Millis() > 5
                        ? Optional.empty()
                        : Optional.of(r.latencyP50Millis())))
        .contains(new BenchRounds.Spread(1.5, 1, 2));
    assertThat(rounds.spread(r -> Optional.empty())).isEmpty();
  }

  @Test
  void shouldGiveAFigureThatIsZeroInEveryRoundNoRange() {
    // a stage with no samples in any round
    assertThat(rounds(0, 0, 0).spreadOf(BenchResults::latencyP50Millis).relativeRange()).isZero();
  }

  @Test
  void shouldRefuseNoRoundAtAll() {
    assertThatThrownBy(() -> new BenchRounds(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
