package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A measured stretch's figures from its samples: the processor's CPU per reading leaves out the
 * full collections the benchmark asked for itself, which the peers, sampled without them, never
 * pay.
 */
class MemorySampleTest {

  private static final GcCounts NO_GC = new GcCounts(0, 0, 0, 0, 0, 0);

  private static MemorySample at(
      final int seconds, final long processed, final int cpuSeconds, final int benchGcMillis) {
    return new MemorySample(
        Duration.ofSeconds(seconds),
        processed,
        processed,
        10,
        100L << 20,
        200L << 20,
        1L << 20,
        Duration.ofSeconds(cpuSeconds),
        LatencyHistogram.EMPTY,
        0,
        NO_GC,
        Duration.ofMillis(benchGcMillis));
  }

  @Test
  void shouldLeaveTheBenchmarksOwnCollectionsOutOfTheProcessorsCpu() {
    final List<MemorySample> samples =
        List.of(
            at(0, 0, 5, 300),
            at(15, 1_000_000, 15, 900), // the measured stretch starts here
            at(30, 2_000_000, 24, 1_500),
            at(45, 3_000_000, 33, 2_100));
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    final MemorySample.Measured measured =
        MemorySample.summarise(
            samples, 1_000, 1, new PrintStream(printed, true, StandardCharsets.UTF_8));

    // 18 s of CPU over 2,000,000 readings, of which 1.2 s in the benchmark's own collections
    assertThat(measured.cpuMillisPerThousand()).isCloseTo(8.4, within(1e-9));
    assertThat(MemorySample.benchGc(samples.get(1), samples.get(3)))
        .isEqualTo(Duration.ofMillis(1_200));
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .containsPattern("the benchmark's own heap reads +0\\.60 ms per 1,000 readings");
  }
}
