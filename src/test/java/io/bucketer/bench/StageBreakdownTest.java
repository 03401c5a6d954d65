package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.bench.StageClassifier.Stage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class StageBreakdownTest {

  // 10,000 readings: 1 ms of CPU is 0.1 ms per 1,000 readings.
  private static final long READINGS = 10_000;

  /**
   * 10 s of CPU in all: the stand-in 1 s, so this JVM 9 s, of which the JIT 2 s, the GC 0.5 s and
   * the Java threads 6 s; 0.5 s is left unattributed.
   */
  private static StageBreakdown breakdown() {
    return new StageBreakdown(
        new StageRecording.Sampled(
            Map.of(Stage.DECODE, 150.0, Stage.AGGREGATE, 300.0, Stage.BROKER, 150.0),
            Duration.ofSeconds(6),
            Duration.ofMillis(500),
            Duration.ofMillis(90)),
        new PhaseClock.Measured(
            Duration.ofSeconds(20),
            Duration.ofSeconds(10),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1)),
        READINGS);
  }

  private static Map<String, Double> byLine(final StageBreakdown breakdown) {
    return breakdown.lines().stream()
        .collect(
            Collectors.toMap(StageBreakdown.Line::name, StageBreakdown.Line::millisPerThousand));
  }

  @Test
  void shouldShareTheJavaThreadsCpuOutByTheSamples() {
    final Map<String, Double> lines = byLine(breakdown());

    // 6 s over 10,000 readings is 600 ms per 1,000: a quarter, a half and a quarter of it
    assertThat(lines.get(Stage.DECODE.label())).isCloseTo(150, within(1e-9));
    assertThat(lines.get(Stage.AGGREGATE.label())).isCloseTo(300, within(1e-9));
    assertThat(lines.get(Stage.BROKER.label())).isCloseTo(150, within(1e-9));
    assertThat(lines.get(Stage.SINK.label())).isZero();
  }

  @Test
  void shouldAddUpToTheRowsMeasuredCpuWithTheRestUnattributed() {
    final StageBreakdown breakdown = breakdown();
    final Map<String, Double> lines = byLine(breakdown);

    assertThat(lines.get("JIT compilers (measured)")).isCloseTo(200, within(1e-9));
    assertThat(lines.get("GC threads (measured)")).isCloseTo(50, within(1e-9));
    assertThat(lines.get(StageBreakdown.UNATTRIBUTED)).isCloseTo(50, within(1e-9));
    assertThat(breakdown.total()).isCloseTo(1000, within(1e-9));
    assertThat(lines.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(breakdown.total(), within(1e-9));
    // JFR's threads, 90 ms of this JVM's 9 s
    assertThat(breakdown.recorderShare()).isCloseTo(0.01, within(1e-9));
  }

  @Test
  void shouldPrintEveryLineAndTheTotalWithTheRecordingsOverhead() {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    breakdown().print(new PrintStream(printed, true, StandardCharsets.UTF_8));

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("600 in the measured phase", "the recording's own threads took 1.0%")
        .containsPattern("MongoDB stand-in \\(own process, not bucketer's cost\\) +100.00")
        .containsPattern("total, row 2's CPU ms/1k +1000.00");
  }
}
