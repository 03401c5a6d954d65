package io.bucketer.cli;

import io.bucketer.kafkaaccess.KafkaUnusableException;
import io.bucketer.kafkaaccess.NotAuthorisedException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;

/** What every bucketer command line shares: {@link BucketerCli}'s and {@link RuntimeCli}'s. */
final class CommandLines {

  /** Exit code for an invalid setting: the message names it; no stack trace. */
  static final int BAD_CONFIGURATION = 2;

  /**
   * Exit code for a dependency's refusal that retrying cannot fix (the cluster's authorizer refused
   * an ACL, TLS trust, a refused certificate or login): one line says what is wrong; no stack
   * trace.
   */
  static final int FATAL_DEPENDENCY_FAILURE = 3;

  private CommandLines() {}

  /** The behaviour every bucketer command line shares, the runtime image's included. */
  static CommandLine configured(final CommandLine commandLine) {
    // --format json, --schema gateway: enum options read as users write them, in lower case.
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(
        (exception, cmd, parseResult) -> {
          if (exception instanceof ConfigException) {
            cmd.getErr().println("bucketer: invalid configuration: " + exception.getMessage());
            return BAD_CONFIGURATION;
          }
          if (exception instanceof NotAuthorisedException
              || exception instanceof KafkaUnusableException) {
            cmd.getErr().println("bucketer: " + exception.getMessage());
            return FATAL_DEPENDENCY_FAILURE;
          }
          throw exception;
        });
    return commandLine;
  }
}
