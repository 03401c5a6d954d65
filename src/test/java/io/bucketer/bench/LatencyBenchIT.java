package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.bucketer.cli.BucketerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench latency} at a tiny size, so that it cannot rot: a short capacity run, then a given
 * rate and a share of the capacity, each one window close measured. The figures hold together; how
 * fast they are is not judged here.
 */
@Tag("integration")
// Two rates of at most two minutes each, and the capacity run: a hung run fails well before CI's
// limit.
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class LatencyBenchIT {

  private static final int SENSORS = 20;

  @Test
  void shouldReportEachRatesLatencyOverTheWindowsThatClosedAfterTheWarmUp() throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final LatencyResults results =
        new LatencyBench(
                new LatencyBench.Options(
                    List.of(new OfferedRate(200, false), new OfferedRate(0.01, true)),
                    OptionalDouble.empty(),
                    Duration.ofMinutes(5),
                    SENSORS,
                    Duration.ofSeconds(10),
                    1,
                    "256m",
                    2,
                    Map.of(),
                    BucketerCli.class,
                    Duration.ofMinutes(3)),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();

    assertThat(results.capacity()).isPositive();
    assertThat(results.rates())
        .extracting(LatencyResults.AtRate::label)
        .containsExactly("200/s", "1%");
    for (final LatencyResults.AtRate rate : results.rates()) {
      assertThat(rate.closes()).isEqualTo(1);
      // every series' window of the measured close, and nothing from the warm-up's
      assertThat(rate.buckets()).isGreaterThanOrEqualTo(SENSORS).isLessThan(3L * SENSORS);
      assertThat(rate.p50Millis()).isPositive().isLessThanOrEqualTo(rate.p99Millis());
      assertThat(rate.p99Millis()).isLessThanOrEqualTo(rate.maxMillis());
      assertThat(rate.produced()).isCloseTo(rate.offered(), withinPercentage(10));
      assertThat(rate.consumed()).isCloseTo(rate.offered(), withinPercentage(15));
      assertThat(rate.standInDocuments()).isGreaterThanOrEqualTo(rate.buckets());
      assertThat(rate.standInWriteSeconds()).isPositive();
    }
    assertThat(results.rates().get(1).offered())
        .isCloseTo(results.capacity() * 0.01, withinPercentage(5));
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("capacity: ", "machine: ", "load average at the start: ")
        .containsPattern("200/s +200 +[0-9,]+ +[0-9,]+ +1 ")
        .containsPattern("1%: (not )?bound by the MongoDB stand-in: [0-9,]+ documents per minute");
  }
}
