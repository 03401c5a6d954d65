package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's demo command, as a user runs it: the packaged jar in its own JVM. It must end by
 * itself, exit 0, and show the check that MongoDB's counts equal the readings sent.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DemoCommandIT {

  @Test
  void shouldRunTheDemoFromThePackagedJarAndReportMatchingCounts(@TempDir final Path dir)
      throws Exception {
    final String printed = demo(dir, "--readings", "3000", "--sensors", "10");

    assertThat(printed)
        .contains("\"measurements\"")
        // the hour document holds its minutes' summaries
        .contains("\"summaries\"", "\"summary_granularity\": \"1m\"")
        // its window and its summaries carry their quantile sketches
        .contains("\"quantile_sketch\"")
        .contains("OK: every reading is in exactly one bucket of each granularity.")
        .containsPattern("1m +[\\d,]+ +3,000 +3,000  ok")
        .containsPattern("1h +[\\d,]+ +3,000 +3,000  ok")
        // the replay's first hour holds all of a sensor's 300 readings: one hour document gives
        // their average, time-weighted average, p95, spread, minimum, maximum and coverage
        .containsPattern(
            "300 +[\\d.]+ +[\\d.]+ +[\\d.]+ +[\\d.]+ +[\\d.-]+ +[\\d.]+ +[\\d.]+%  1 document"
                + " instead of 300 readings")
        .doesNotContain("WARN")
        .doesNotContain("INFO");
  }

  /** A gateway's own schema, three values a record, sent as JSON: the README's second example. */
  @Test
  void shouldBucketAGatewaysMultiValueJsonRecords(@TempDir final Path dir) throws Exception {
    final String printed =
        demo(
            dir,
            "--readings",
            "1000",
            "--sensors",
            "10",
            "--schema",
            "gateway",
            "--format",
            "json");

    assertThat(printed)
        .contains("1,000 gateway records (json) of 3 values, 3,000 readings")
        .contains("OK: every reading is in exactly one bucket of each granularity.")
        .containsPattern("1m +[\\d,]+ +3,000 +3,000  ok")
        .containsPattern("\"metric\": \"(temperature|humidity|battery)\"")
        .contains("dead-letter topic: empty");
  }

  /** Runs the packaged jar's demo with {@code arguments}; it must end by itself and exit 0. */
  private static String demo(final Path dir, final String... arguments) throws Exception {
    final Path jar = Path.of("target", "bucketer.jar");
    assertThat(jar).as("built by mvn package before the integration tests").exists();
    final Path output = dir.resolve("demo.out");
    final List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "demo"));
    command.addAll(List.of(arguments));
    final Process demo =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();

    final boolean ended = demo.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      demo.destroyForcibly();
    }
    final String printed = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(ended).as("demo ended by itself; it printed:%n%s", printed).isTrue();
    assertThat(demo.exitValue()).as(printed).isZero();
    return printed;
  }
}
