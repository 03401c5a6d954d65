package io.bucketer.testing;

import io.bucketer.cli.BucketerCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * One {@code bucketer} command run in the test's JVM as a user types it: its exit code and what it
 * printed on standard output and error.
 */
public record CliRun(int exitCode, String out, String err) {

  /** Runs {@code bucketer args...}. */
  public static CliRun of(final List<String> args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    final int exitCode = commandLine.execute(args.toArray(new String[0]));
    return new CliRun(exitCode, out.toString(), err.toString());
  }

  /** Runs {@code bucketer command...} followed by {@code -s name=value} for each setting. */
  public static CliRun withSettings(final Map<String, String> settings, final String... command) {
    final List<String> args = new ArrayList<>(List.of(command));
    settings.forEach(
        (name, value) -> {
          args.add("-s");
          args.add(name + "=" + value);
        });
    return of(args);
  }
}
