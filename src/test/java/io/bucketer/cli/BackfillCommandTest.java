package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The backfill command's refusals, which come before it connects to anything. */
class BackfillCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int execute(final String... args) {
    final List<String> all =
        new ArrayList<>(
            List.of(
                "backfill",
                "-s",
                "bootstrap.servers=localhost:1",
                "-s",
                "schema.registry.url=http://localhost:1",
                "-s",
                "mongodb.uri=mongodb://localhost:1",
                "-s",
                "granularities=1m,15m,1h,1d",
                "--from",
                "2026-01-01T00:00:00Z"));
    all.addAll(List.of(args));
    final picocli.CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(all.toArray(String[]::new));
  }

  @Test
  void shouldRefuseTheGranularityFedByReadingsInOneLine() {
    assertThat(execute("--granularity", "1m")).isEqualTo(2);
    assertThat(err.toString())
        .startsWith(
            "--granularity 1m is fed by readings, not rolled up from a finer granularity of"
                + " [1m, 15m, 1h, 1d]: backfill builds only granularities rolled up from finer"
                + " documents")
        .doesNotContain("Exception");
  }

  @Test
  void shouldRefuseAGranularityThatKeepsMeasurements() {
    assertThat(execute("--granularity", "15m,1h", "-s", "bucket.measurements.granularities=1h"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("1h keeps raw measurements", "summary documents only");
  }

  @Test
  void shouldRefuseAGranularityNotConfiguredAndAMissingOne() {
    assertThat(execute("--granularity", "5m")).isEqualTo(2);
    assertThat(err.toString()).contains("5m is not one of the granularities [1m, 15m, 1h, 1d]");
    assertThat(execute()).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required option: '--granularity");
  }
}
