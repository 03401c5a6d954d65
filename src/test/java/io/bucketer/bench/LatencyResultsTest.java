package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyResultsTest {

  /** 2 closes of 10,000 documents each, written in 1.6 s of the sink's waiting for MongoDB. */
  private static LatencyResults.AtRate withP50(final double p50Millis) {
    return new LatencyResults.AtRate(
        "50%",
        10_000, 200, 50_000, 49_900, 49_800, 120, 2, 20_000, p50Millis, 1_200, 1_500, 20_000, 1.6);
  }

  @Test
  void shouldSayTheStandInBoundsTheLatencyWhenWritingACloseTakesItLongerThanP50() {
    final LatencyResults.AtRate rate = withP50(500);

    assertThat(rate.documentsPerClose()).isEqualTo(10_000);
    assertThat(rate.standInDocumentsPerSecond()).isEqualTo(12_500);
    assertThat(rate.standInSecondsPerClose()).isEqualTo(0.8);
    assertThat(rate.boundByStandIn()).isTrue();
    assertThat(printed(rate))
        .contains(
            "50%: bound by the MongoDB stand-in: 10,000 documents per minute close at 12,500"
                + " documents/s = at least 0.80 s")
        .containsPattern("50% +50,000 +49,900 +49,800 +2 +20,000 +500 ms +1,200 ms +1,500 ms");
  }

  @Test
  void shouldSayWhenItDoesNot() {
    final LatencyResults.AtRate rate = withP50(900);

    assertThat(rate.boundByStandIn()).isFalse();
    assertThat(printed(rate)).contains("50%: not bound by the MongoDB stand-in").contains("0.80 s");
  }

  private static String printed(final LatencyResults.AtRate rate) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new LatencyResults(100_000, "given", List.of(rate))
        .print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
