package io.bucketer.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The class path of the sink connector's JVM: Kafka Connect, MongoDB's connector and their
 * libraries from {@code connectLib} (the build's {@code target/connect-lib}), then bucketer's own
 * classes, for the converter, without bucketer's dependencies. The shaded {@code bucketer.jar} must
 * not be on it: it holds MongoDB's 5.x drivers beside the connector's 4.7 sync driver, its own
 * Jackson and SLF4J binding, and whichever copy of a class came first would win.
 */
public record ConnectorClasspath(Path connectLib, List<Path> bucketerClasses) {

  static final String CONNECT_LIB = "connect-lib";
  private static final String POM_PROPERTIES =
      "/META-INF/maven/io.bucketer/bucketer/pom.properties";

  public ConnectorClasspath {
    Objects.requireNonNull(connectLib, "connectLib");
    bucketerClasses = List.copyOf(bucketerClasses);
    if (!Files.isDirectory(connectLib)) {
      throw new IllegalStateException(
          "no connector class path at "
              + connectLib
              + ": build it with `mvn package` (src/bench/connect/pom.xml copies it there)");
    }
  }

  /**
   * Finds both parts next to the running code: beside {@code target/classes} when run from the
   * build (tests), or beside the jars when run from {@code target/bucketer.jar}, whose thin sibling
   * {@code bucketer-<version>.jar} then provides bucketer's classes. Not {@code
   * original-bucketer.jar}: the shade plugin leaves the previous build's shaded jar under that
   * name.
   *
   * @throws IllegalStateException if {@code connect-lib} or the thin jar is not there
   */
  public static ConnectorClasspath locate() {
    final Path code = codeLocation();
    return Files.isDirectory(code) ? besideClasses(code) : besideJar(code, thinJarName());
  }

  static ConnectorClasspath besideClasses(final Path classesDirectory) {
    return new ConnectorClasspath(
        classesDirectory.resolveSibling(CONNECT_LIB), List.of(classesDirectory));
  }

  static ConnectorClasspath besideJar(final Path runningJar, final String thinJarName) {
    final Path thinJar = runningJar.resolveSibling(thinJarName);
    if (!Files.isRegularFile(thinJar)) {
      throw new IllegalStateException(
          "running from "
              + runningJar
              + ", but bucketer's jar without dependencies, "
              + thinJar
              + ", is missing: run `mvn package`, or give the class path explicitly");
    }
    return new ConnectorClasspath(runningJar.resolveSibling(CONNECT_LIB), List.of(thinJar));
  }

  /** The {@code -cp} argument: the java launcher expands {@code connect-lib/*} to its jars. */
  public String asArgument() {
    final List<String> entries = new ArrayList<>();
    entries.add(connectLib.resolve("*").toString());
    bucketerClasses.forEach(p -> entries.add(p.toString()));
    return String.join(File.pathSeparator, entries);
  }

  private static Path codeLocation() {
    final CodeSource source = ConnectorClasspath.class.getProtectionDomain().getCodeSource();
    if (source == null) {
      throw new IllegalStateException("cannot tell where bucketer's classes were loaded from");
    }
    try {
      return Path.of(source.getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("unusable code location " + source.getLocation(), e);
    }
  }

  /** {@code bucketer-<version>.jar}, as Maven names it; the version is in every jar it builds. */
  private static String thinJarName() {
    try (InputStream in = ConnectorClasspath.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in == null) {
        throw new IllegalStateException(
            "bucketer runs from a jar that Maven did not build (no "
                + POM_PROPERTIES
                + "): give the connector's class path explicitly");
      }
      final Properties pom = new Properties();
      pom.load(in);
      return pom.getProperty("artifactId") + "-" + pom.getProperty("version") + ".jar";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + POM_PROPERTIES, e);
    }
  }
}
