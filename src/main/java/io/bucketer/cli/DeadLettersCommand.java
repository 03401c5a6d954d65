package io.bucketer.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bucketer dead-letters}: looks at the dead-letter topic and sends records back. */
@Command(
    name = "dead-letters",
    mixinStandardHelpOptions = true,
    description = {
      "Reads dead.letter.topic with the settings of run (-c, -s, BUCKETER_* variables), as "
          + "a plain consumer that joins no group and commits nothing: it disturbs no processor "
          + "and may run at any time. summary counts the records, show prints them decoded as far"
          + " as they go, replay sends the chosen ones back to input.topic after a fix.",
      "Exit status: 0 done, 1 Kafka failed or the topic is missing, 2 bad options or "
          + "settings, 3 Kafka refused the credentials or an ACL."
    },
    subcommands = {
      DeadLettersSummaryCommand.class,
      DeadLettersShowCommand.class,
      DeadLettersReplayCommand.class
    })
final class DeadLettersCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
