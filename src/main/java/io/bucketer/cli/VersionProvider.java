package io.bucketer.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest, or "development" when run from classes. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    final String version = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {"bucketer " + (version == null ? "development" : version)};
  }
}
