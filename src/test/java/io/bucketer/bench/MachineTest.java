package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MachineTest {

  @Test
  void shouldNameTheCoresTheMemoryAndTheJvm() {
    assertThat(Machine.describe())
        .startsWith("machine: ")
        .contains(Runtime.getRuntime().availableProcessors() + " cores")
        .contains(" GiB; ")
        .contains(System.getProperty("java.runtime.version"));
  }

  @Test
  void shouldSayWhenTheLoadAverageWasRead() {
    assertThat(Machine.load("at the start")).startsWith("load average at the start: ");
  }
}
