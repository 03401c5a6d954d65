package io.bucketer.cli;

import io.bucketer.config.ConfigReference;
import picocli.CommandLine.Command;

/**
 * {@code bucketer config-reference}: prints the settings table that docs/configuration.md holds.
 */
@Command(
    name = "config-reference",
    mixinStandardHelpOptions = true,
    description = "Prints every setting with its default and meaning, as a Markdown table body.")
final class ConfigReferenceCommand implements Runnable {
  @Override
  public void run() {
    System.out.println(ConfigReference.markdownRows());
  }
}
