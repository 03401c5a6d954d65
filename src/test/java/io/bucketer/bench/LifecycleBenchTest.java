package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LifecycleBenchTest {

  @Test
  void shouldCloseEveryMinuteOfEverySeriesOnceWhicheverKeysNameTheSeries() throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final LifecycleBench.Options options =
        new LifecycleBench.Options(500, Duration.ofMinutes(3), 100, 1, 1);
    final List<LifecycleBench.Run> runs =
        LifecycleBench.run(
            options,
            keys -> LifecycleBench.runHere(options, keys),
            new PrintStream(printed, true, StandardCharsets.UTF_8));

    assertThat(runs)
        .extracting(LifecycleBench.Run::keys)
        .containsExactly(LifecycleBench.Keys.DECODED, LifecycleBench.Keys.SHARED);
    for (final LifecycleBench.Run run : runs) {
      // minutes 0 and 1 close at 70 s and 130 s of event time (grace 10 s); minute 2 stays open
      assertThat(run.buckets()).isEqualTo(2 * 500);
      // the two minutes after the warm-up one, every series each second
      assertThat(run.readings()).isEqualTo(120 * 500);
      assertThat(run.closingReadings()).isEqualTo(2 * 500);
      assertThat(run.cpuNanos()).isPositive();
    }
    assertThat(runs.get(0).changesLogged()).isEqualTo(runs.get(1).changesLogged()).isPositive();
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("500 series")
        .contains("a key decoded for each reading: ")
        .contains("one key object per series: ");
  }

  @Test
  void shouldApplyEachSeriesReadingsSeveralAtOnceAndCloseTheSameMinutes() throws Exception {
    final LifecycleBench.Options options =
        new LifecycleBench.Options(500, Duration.ofMinutes(3), 100, 5, 1);
    final LifecycleBench.Run run = LifecycleBench.runHere(options, LifecycleBench.Keys.DECODED);

    assertThat(run.buckets()).isEqualTo(2 * 500);
    assertThat(run.readings()).isEqualTo(120 * 500);
    // the five seconds that hold 70 s and 130 s, each step of five readings of every series
    assertThat(run.closingReadings()).isEqualTo(2 * 5 * 500);
  }

  @Test
  void shouldReadBackTheLineARunsJvmPrints() {
    final LifecycleBench.Run run =
        new LifecycleBench.Run(
            LifecycleBench.Keys.SHARED, 60_000, 81_000_000, 500, 3_000_000, 1_000, 61_500);

    assertThat(LifecycleBench.Run.isRunLine(run.toLine())).isTrue();
    assertThat(LifecycleBench.Run.parse(run.toLine())).isEqualTo(run);
    assertThat(LifecycleBench.Run.isRunLine("lifecycle-runs 1 2")).isFalse();
    assertThatThrownBy(() -> LifecycleBench.Run.parse("lifecycle-run SHARED 1 2"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRefuseAnEventTimeWithNothingAfterItsWarmUp() {
    assertThatThrownBy(() -> new LifecycleBench.Options(10, Duration.ofSeconds(90), 10, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2m");
  }
}
