package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SoakBenchTest {

  private static final long NINE_GIB = 9L << 30;

  @Test
  void shouldWarnWhenTheStandInCannotHoldTheRunsReadings() {
    assertThat(SoakBench.standInRoom(20_000, Duration.ofSeconds(1), Duration.ofHours(1), NINE_GIB))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .contains("this run's 72,000,000 readings want 30.2 GiB")
                    .contains("its heap is 9.0 GiB")
                    .contains("Past about 21,474,836 readings (18 minutes into the run)"));
  }

  @Test
  void shouldSayNothingWhenTheReadingsFitOnTheStandInsHeap() {
    assertThat(SoakBench.standInRoom(4_000, Duration.ofSeconds(1), Duration.ofHours(1), NINE_GIB))
        .isEmpty();
  }
}
