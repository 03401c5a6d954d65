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
      CheckCommand.class,
      DeadLettersCommand.class,
      ResinkCommand.class,
      BackfillCommand.class,
      ReprocessCommand.class,
      RescaleCommand.class,
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

  /** Exit code for a refusal retrying cannot fix (a missing ACL): one line says what is missing. */
  public static final int FATAL_DEPENDENCY_FAILURE = CommandLines.FATAL_DEPENDENCY_FAILURE;

  public static void main(final String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line as {@link #main} runs it, for running a command in this JVM. */
  public static CommandLine commandLine() {
    return CommandLines.configured(new CommandLine(new BucketerCli()));
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
