package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.cli.BucketerCli;
import io.bucketer.config.KafkaSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench soak} at a tiny size and a short run, so that the harness cannot rot: every fault
 * happens for real and is recovered from (a second instance joins and leaves: nothing is lost or
 * counted twice across the tasks it takes and gives back), a row comes every few seconds, and the
 * final check finds every reading. Its stalls are shorter than Kafka's timeouts (StallRecoveryIT
 * holds the long ones); the processor picks new partitions up within seconds here (metadata
 * refreshed every 2 s instead of 5 minutes), so that the run need not last for the default's
 * refresh.
 */
@Tag("integration")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class SoakBenchIT {

  @Test
  void shouldRunEveryFaultAndFindEveryReadingAtTheEnd() throws Exception {
    final Soaked soaked = soak(1);

    assertThat(soaked.result().exact()).as(soaked.output()).isTrue();
    assertThat(soaked.result().samples())
        .as("a row every 5 s of two minutes")
        .hasSizeGreaterThan(15);
    assertThat(soaked.output())
        .contains("for 2m, into 1 instance; faults at")
        .contains("processor killed (SIGKILL) and started again: ready and committing again")
        .contains("MongoDB frozen (SIGSTOP) for 5s: ready and committing again")
        .contains("processor frozen (SIGSTOP) for 5s: ready and committing again")
        .containsPattern("a tenant floods new series: 500 readings of new series")
        .containsPattern("input partitions added, 2 to 4: all consumed [0-9]+ s later")
        .containsPattern(
            "a second instance joins: it held partitions [0-9.]+ s after its start, and 30s later"
                + " these: \\{[^}]+\\}; ")
        .containsPattern(
            "the second instance stops \\(SIGTERM\\): every partition committed again [0-9.]+ s"
                + " after the stop; ")
        .containsPattern("1m windows: [0-9,]+ closed expected holding 36,000 readings[^\n]*: exact")
        .containsPattern("1h windows: [^\n]*: exact")
        .contains("stayed flat?");
  }

  /**
   * Two instances from the start, and a third that joins and leaves, as a fleet that grows past
   * two: every reading still in exactly one bucket, across the tasks the third takes and gives
   * back.
   */
  @Test
  void shouldJoinAThirdInstanceBesideTwoAndFindEveryReadingAtTheEnd() throws Exception {
    final Soaked soaked = soak(2);

    assertThat(soaked.result().exact()).as(soaked.output()).isTrue();
    assertThat(soaked.output())
        .contains("for 2m, into 2 instances; faults at")
        .containsPattern("a third instance joins: it held partitions [0-9.]+ s after its start")
        .containsPattern(
            "the third instance stops \\(SIGTERM\\): every partition committed again [0-9.]+ s"
                + " after the stop; ")
        .containsPattern(
            "1m windows: [0-9,]+ closed expected holding 36,000 readings[^\n]*: exact");
  }

  private record Soaked(SoakBench.Result result, String output) {}

  private static Soaked soak(final int instances) throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final SoakBench.Result result =
        new SoakBench(
                new SoakBench.Options(
                    300,
                    instances,
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(2),
                    Duration.ofSeconds(5),
                    "256m",
                    2,
                    new SoakFaults.Strength(Duration.ofSeconds(5), Duration.ofSeconds(10), 50, 4),
                    "100/60",
                    Map.of(KafkaSettings.CLIENT_PREFIX + "metadata.max.age.ms", "2000"),
                    BucketerCli.class),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();
    return new Soaked(result, printed.toString(StandardCharsets.UTF_8));
  }
}
