package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

class BenchRoundsTest {

  /** A round with nothing but its close-to-visible p50, the one figure these tests read. */
  private static BenchResults round(final double p50) {
    return new BenchResults(
        null, null, null, null, null, null, null, null, null, null, p50, 0, 0, null, List.of(),
        List.of(), List.of(), List.of(), null);
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
  void shouldPrintTheMediansOfQuantileSketchesOnAgainstOff() {
    // CPU a 1,000 readings 5.5 against 5.0, 5.1 against 5.0 and 6.0 against 5.0: 1.10, 1.02, 1.20
    final BenchRounds rounds =
        new BenchRounds(
            List.of(
                BenchResultsFixture.round(twin(5_500, 60_000_000), twin(5_000, 56_000_000), true),
                BenchResultsFixture.round(twin(5_100, 60_000_000), twin(5_000, 56_000_000), true),
                BenchResultsFixture.round(twin(6_000, 60_000_000), twin(5_000, 56_000_000), true)));
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    rounds.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .containsPattern("\n  2n bucketer, quantiles.enabled=false +1,000,000 ")
        .containsPattern(
            "\n  CPU per reading, 2p/2n \\(quantile sketches on vs off\\) +1\\.10 +1\\.02 - 1\\.20"
                + " +16%   \\(2n runs after 2p: order swings it both ways\\)\n")
        // without the MongoDB server's 0.5 s: 5.0, 4.6 and 5.5 s against 4.5 s
        .containsPattern(
            "\n    the same, without MongoDB's CPU and the JIT's +1\\.11 +1\\.02 - 1\\.22 ")
        .containsPattern(
            "\n  2p/2n quantile sketches on vs off +1\\.00 +1\\.00 - 1\\.00 +0%   \\(2n runs after"
                + " 2p: order swings it both ways\\)\n")
        // 64 B against 60 B a reading in every round: no spread
        .containsPattern(
            "\n  bytes per reading, 2p/2n \\(quantile sketches on vs off\\) +1\\.07 +1\\.07 -"
                + " 1\\.07 +0%   \\(BSON of the documents, every granularity\\)\n")
        .contains("BSON bytes per reading stored, 2p (quantile sketches on) and 2n (off)")
        .containsPattern(
            "\n    2p, quantile sketches on: every granularity +64\\.00 +64\\.00 - 64\\.00 ")
        .containsPattern(
            "\n    2n, quantile sketches off: every granularity +60\\.00 +60\\.00 - 60\\.00 ")
        .containsPattern("\n      of which 1m: readings +56\\.00 ");
  }

  /** 2p or 2n: a second for a million readings, and 4 MB of hour documents. */
  private static BenchResultsFixture.Twin twin(final long cpuMillis, final long minuteBytes) {
    return new BenchResultsFixture.Twin(1_000, cpuMillis, minuteBytes, 4_000_000);
  }

  @Test
  void shouldRefuseNoRoundAtAll() {
    assertThatThrownBy(() -> new BenchRounds(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
