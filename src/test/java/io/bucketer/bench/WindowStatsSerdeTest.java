package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WindowStatsSerdeTest {

  private final WindowStatsSerde serde = new WindowStatsSerde();

  @Test
  void shouldReadBackWhatItWrote() {
    final WindowStats stats = WindowStats.empty().add(2.5).add(-1.0).add(7.25);

    final byte[] bytes = serde.serializer().serialize("t", stats);

    assertThat(bytes).hasSize(WindowStatsSerde.BYTES);
    assertThat(serde.deserializer().deserialize("t", bytes))
        .isEqualTo(new WindowStats(3, 8.75, -1.0, 7.25));
  }

  @Test
  void shouldRefuseBytesOfAnotherLength() {
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes, not 31");
  }
}
