package io.bucketer.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bucketer-run.jar}, the artifact the runtime image carries: the processor
 * and what an operator runs beside it ({@code run}, {@code check}, {@code dead-letters}, {@code
 * resink}, {@code reprocess}, {@code simulate}, {@code query}, {@code config-reference}), without
 * the demo and the benchmarks, and so without the embedded Kafka broker, Scala and the MongoDB
 * stand-in that only they need.
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
      QueryCommand.class,
      ConfigReferenceCommand.class,
      AuthCommand.class,
      CommandLine.HelpCommand.class
    })
public final class RuntimeCli implements Runnable {

  public static void main(final String[] args) {
    System.exit(CommandLines.configured(new CommandLine(new RuntimeCli())).execute(args));
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
