package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench lifecycle} as a user runs it: each run in a JVM of its own, its figures read back.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LifecycleBenchCommandIT {

  @Test
  void shouldRunEachFleetInAJvmOfItsOwnWithTheProcessorsOptionsAndTabulateWhatItHandsBack() {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final PrintStream standardOut = System.out;
    final int exitCode;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      final picocli.CommandLine commandLine = BucketerCli.commandLine();
      commandLine.setErr(new PrintWriter(new StringWriter()));
      exitCode =
          commandLine.execute(
              "bench",
              "lifecycle",
              "--series=300",
              "--event-time=2m",
              "--readings-per-commit=50",
              "--rounds=1");
    } finally {
      System.setOut(standardOut);
    }

    final String output = printed.toString(StandardCharsets.UTF_8);
    assertThat(exitCode).as(output).isZero();
    assertThat(output)
        .contains("each run in a JVM of its own: [-Xmx3g, -Xms3g, -XX:+UseParallelGC")
        .contains("300 series");
    // one row a run, each with the buckets its JVM counted: minute 0 of each of the 300 series,
    // closed at 70 s of the two minutes' event time
    assertThat(output.lines().filter(line -> line.matches("\\s+1\\s+(a key|one key).*\\s300$")))
        .hasSize(2);
    assertThat(output)
        .contains("a key decoded for each reading: ")
        .contains("one key object per series: ");
  }
}
