package io.bucketer.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bucketer query}: asks a running processor's query API about one series. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
      "Asks a running processor (its HTTP port) about one series over a range [from, to).",
      "Exit status: 0 answered, 1 an error answer or no processor at --url, 2 bad options."
    },
    subcommands = {QueryStatisticsCommand.class, QueryBucketsCommand.class})
final class QueryCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
