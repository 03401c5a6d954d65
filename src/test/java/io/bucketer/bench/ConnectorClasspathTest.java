package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectorClasspathTest {

  private static final String THIN_JAR = "bucketer-0.1.0-SNAPSHOT.jar";

  @TempDir Path target;

  @Test
  void shouldTakeTheClassesDirectoryAndTheConnectLibBesideIt() throws Exception {
    final Path classes = Files.createDirectory(target.resolve("classes"));
    Files.createDirectory(target.resolve("connect-lib"));

    final ConnectorClasspath classpath = ConnectorClasspath.besideClasses(classes);

    assertThat(classpath.connectLib()).isEqualTo(target.resolve("connect-lib"));
    assertThat(classpath.bucketerClasses()).containsExactly(classes);
    assertThat(classpath.asArgument())
        .isEqualTo(target.resolve("connect-lib").resolve("*") + File.pathSeparator + classes);
  }

  /** The shaded jar holds newer Kafka clients and drivers than the connector's: never on it. */
  @Test
  void shouldTakeTheThinJarWhenRunningFromTheShadedOne() throws Exception {
    final Path shaded = Files.createFile(target.resolve("bucketer.jar"));
    final Path thin = Files.createFile(target.resolve(THIN_JAR));
    Files.createDirectory(target.resolve("connect-lib"));

    final ConnectorClasspath classpath = ConnectorClasspath.besideJar(shaded, THIN_JAR);

    assertThat(classpath.bucketerClasses()).containsExactly(thin);
    assertThat(classpath.connectLib()).isEqualTo(target.resolve("connect-lib"));
  }

  @Test
  void shouldSayHowToBuildTheConnectLibWhenItIsMissing() throws Exception {
    final Path classes = Files.createDirectory(target.resolve("classes"));

    assertThatThrownBy(() -> ConnectorClasspath.besideClasses(classes))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(target.resolve("connect-lib").toString())
        .hasMessageContaining("mvn package");
  }

  @Test
  void shouldSayWhichThinJarIsMissing() throws Exception {
    final Path shaded = Files.createFile(target.resolve("bucketer.jar"));
    Files.createDirectory(target.resolve("connect-lib"));

    assertThatThrownBy(() -> ConnectorClasspath.besideJar(shaded, THIN_JAR))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(target.resolve(THIN_JAR).toString());
  }
}
