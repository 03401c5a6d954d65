package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.config.HttpSettings;
import io.bucketer.config.KafkaSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
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

  @Test
  void shouldGiveEachMoreInstanceItsOwnIdPortAndStateDirectory() {
    final Map<String, String> first =
        Map.of(
            KafkaSettings.INSTANCE_ID,
            "soak",
            HttpSettings.PORT,
            "8080",
            KafkaSettings.CLIENT_PREFIX + "state.dir",
            "/tmp/state",
            KafkaSettings.APPLICATION_ID,
            "bucketer-bench-memory");

    final Map<String, String> third =
        SoakBench.instanceSettings(first, "soak-3", 8082, Path.of("/tmp/state-3"));

    assertThat(third)
        .containsEntry(KafkaSettings.INSTANCE_ID, "soak-3")
        .containsEntry(HttpSettings.PORT, "8082")
        .containsEntry(KafkaSettings.CLIENT_PREFIX + "state.dir", "/tmp/state-3")
        .containsEntry(KafkaSettings.APPLICATION_ID, "bucketer-bench-memory");
  }

  @Test
  void shouldNameTheJoinersPlaceInWords() {
    assertThat(SoakFaults.place(2)).isEqualTo("second");
    assertThat(SoakFaults.place(3)).isEqualTo("third");
    assertThat(SoakFaults.place(7)).isEqualTo("7th");
  }

  @Test
  void shouldRefuseASoakWithoutAnInstanceFromTheStart() {
    assertThatThrownBy(
            () ->
                new SoakBench.Options(
                    4_000,
                    0,
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(16),
                    Duration.ofMinutes(1),
                    "1g",
                    4,
                    new SoakFaults.Strength(Duration.ofSeconds(60), Duration.ofMinutes(2), 200, 8),
                    "5000/1000",
                    Map.of(),
                    Object.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--instances must be at least 1");
  }
}
