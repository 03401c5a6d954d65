package io.bucketer.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bucketer.jar}: parses the command line and runs one subcommand. The jar
 * holds the tools too (the demo, the benchmarks, the embedded broker and MongoDB stand-in they
 * start); the runtime image runs {@code bucketer-run.jar} instead, whose entry point is {@link
 * RuntimeCli}.
 */
@Command(
    name = "bucketer",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Turns IoT sensor readings on Kafka into MongoDB bucket documents.",
    subcommands = {
      RunCommand.class,
      SimulateCommand.class,
      DemoCommand.class,
      BenchCommand.class,
      QueryCommand.class,
      ConfigReferenceCommand.class,
      AuthCommand.class,
      CommandLine.HelpCommand.class
    })
public final class BucketerCli implements Runnable {

  /** Exit code for an invalid setting: the message names it; no stack trace. */
  public static final int BAD_CONFIGURATION = CommandLines.BAD_CONFIGURATION;

  public static void main(final String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    return CommandLines.configured(new CommandLine(new BucketerCli()));
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
