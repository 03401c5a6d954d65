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
  void shouldCloseEveryMinuteOfEverySeriesOnceWhicheverKeysNameTheSeries() {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final List<LifecycleBench.Run> runs =
        LifecycleBench.run(
            new LifecycleBench.Options(500, Duration.ofMinutes(3), 100, 1),
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
  void shouldRefuseAnEventTimeWithNothingAfterItsWarmUp() {
    assertThatThrownBy(() -> new LifecycleBench.Options(10, Duration.ofSeconds(90), 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2m");
  }
}
