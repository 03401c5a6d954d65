package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The soak's refusals, which come before it starts a broker or a processor. */
class SoakBenchCommandTest {

  @Test
  void shouldRefuseASoakWithoutAnInstanceFromTheStartInOneLine() {
    final StringWriter err = new StringWriter();
    final picocli.CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(new StringWriter()));
    commandLine.setErr(new PrintWriter(err));

    final int exitCode = commandLine.execute("bench", "soak", "--instances", "0");

    assertThat(exitCode).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("--instances must be at least 1")
        .doesNotContain("Exception");
  }
}
