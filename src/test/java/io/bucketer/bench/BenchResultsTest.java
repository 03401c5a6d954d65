package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BenchResultsTest {

  /** 2p: 500,000 readings/s, 5.5 ms CPU a 1,000 readings, 63 BSON bytes a reading. */
  private static final BenchResultsFixture.Twin ON =
      new BenchResultsFixture.Twin(2_000, 5_500, 59_000_000, 4_000_000);

  /** 2n: 555,556 readings/s, 5.0 ms CPU a 1,000 readings, 60 BSON bytes a reading. */
  private static final BenchResultsFixture.Twin OFF =
      new BenchResultsFixture.Twin(1_800, 5_000, 56_000_000, 4_000_000);

  @Test
  void shouldCompareQuantileSketchesOnWithOff() {
    final BenchResults results = BenchResultsFixture.round(ON, OFF, true);

    assertThat(results.quantilesOnToOff()).isCloseTo(0.9, within(1e-9));
    assertThat(results.cpuQuantilesOnToOff()).isCloseTo(1.1, within(1e-9));
    // without the MongoDB server's 0.5 s of each row's CPU: 5.0 s against 4.5 s
    assertThat(results.steadyCpuQuantilesOnToOff()).isCloseTo(5.0 / 4.5, within(1e-9));
    assertThat(results.bytesQuantilesOnToOff()).isCloseTo(1.05, within(1e-9));
  }

  @Test
  void shouldPrintRowTwoNAndItsRatiosToTwoP() {
    final String printed = printed(BenchResultsFixture.round(ON, OFF, true));

    assertThat(printed)
        .containsPattern("\n2p bucketer over PLAINTEXT, right after 2s +500,000 +2\\.0 +5\\.5 ")
        .containsPattern(
            "\n2n bucketer, quantiles.enabled=false, right after 2p +555,556 +1\\.8 +5\\.0 ")
        .contains("the rows' order swings 2p/2n by more than the sketches cost")
        .containsPattern(
            "\n2p/2n quantile sketches on vs off, readings/s +0\\.90 +\\(information: 2n runs"
                + " after 2p: order swings it both ways\\)")
        .containsPattern(
            "\nCPU per reading, 2p/2n \\(quantile sketches on vs off\\) +1\\.10 +\\(information:"
                + " 2n runs after 2p: order swings it both ways\\)\n  the same, without MongoDB's"
                + " CPU and the JIT's +1\\.11 +\\(information: the processor's side alone\\)")
        .containsPattern(
            "\nbytes per reading, 2p/2n \\(quantile sketches on vs off\\) +1\\.05 +\\(information:"
                + " BSON of the documents, every granularity\\)")
        .contains(
            "stored in MongoDB by 2p (quantile sketches on) and 2n (off), BSON of every document:")
        .containsPattern("\n  2p, quantile sketches on: every granularity +36,600 +63\\.00\n")
        .containsPattern("\n    of which 1m: readings +36,000 +59\\.00\n")
        .containsPattern("\n  2n, quantile sketches off: every granularity +36,600 +60\\.00\n")
        .containsPattern("\n    of which 1m: readings +36,000 +56\\.00\n")
        .containsPattern("\n    of which 1h: summaries of 1m +600 +4\\.00\n");
  }

  @Test
  void shouldRunTwoPWithoutTwoS() {
    final String printed = printed(BenchResultsFixture.round(ON, OFF, false));

    assertThat(printed)
        .doesNotContain("2s bucketer", "2s/2p")
        .containsPattern("\n2p bucketer again, PLAINTEXT +500,000 ")
        .contains("CPU per reading, 2p/2n (quantile sketches on vs off)");
  }

  private static String printed(final BenchResults results) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    results.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
