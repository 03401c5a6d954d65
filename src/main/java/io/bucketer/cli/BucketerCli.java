package io.bucketer.cli;

import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code bucketer.jar}: parses the command line and runs one subcommand. */
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
      CommandLine.HelpCommand.class
    })
public final class BucketerCli implements Runnable {

  /** Exit code for an invalid setting: the message names it; no stack trace. */
  public static final int BAD_CONFIGURATION = 2;

  public static void main(final String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    final CommandLine commandLine = new CommandLine(new BucketerCli());
    // --format json, --schema gateway: enum options read as users write them, in lower case.
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(
        (exception, cmd, parseResult) -> {
          if (exception instanceof ConfigException) {
            cmd.getErr().println("bucketer: invalid configuration: " + exception.getMessage());
            return BAD_CONFIGURATION;
          }
          throw exception;
        });
    return commandLine;
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
