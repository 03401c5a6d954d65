package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bucketer-run.jar}, the artifact of the runtime image: it holds none of the tools' weight
 * (the embedded broker, Scala, the MongoDB stand-in, the benchmarks), and its {@code run} buckets
 * readings end to end from its own JVM, so that nothing the processor needs was left out with them.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RuntimeJarIT {

  private static final Path JAR = Path.of("target", "bucketer-run.jar");
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");

  private static LocalInfrastructure infrastructure;

  @TempDir Path dir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldCarryNeitherTheEmbeddedBrokerNorTheStandInNorTheBenchmarks() throws Exception {
    assertThat(JAR).as("built by mvn package before the integration tests").exists();
    final List<String> tools = new ArrayList<>();
    try (JarFile jar = new JarFile(JAR.toFile())) {
      jar.stream()
          .map(ZipEntry::getName)
          .filter(
              name ->
                  // kafka/ also holds the clients' version files; the broker's classes are there
                  (name.startsWith("kafka/") && name.endsWith(".class"))
                      || name.startsWith("scala/")
                      || name.startsWith("de/bwaldvogel/")
                      || name.startsWith("io/netty/")
                      || name.startsWith("io/bucketer/bench/")
                      || name.startsWith("io/bucketer/embedded/")
                      || name.startsWith("io/bucketer/cli/Demo"))
          .forEach(tools::add);
      assertThat(jar.getEntry("io/bucketer/app/BucketerApp.class")).isNotNull();
      // The recovery and reprocessing paths must be in the image that runs beside the processor.
      assertThat(jar.getEntry("io/bucketer/resink/Resink.class")).isNotNull();
      assertThat(jar.getEntry("io/bucketer/reprocess/Reprocess.class")).isNotNull();
    }
    assertThat(tools).isEmpty();
    assertThat(Files.size(JAR)).isLessThan(Files.size(Path.of("target", "bucketer.jar")) / 2);
  }

  @Test
  void shouldBucketReadingsFromItsOwnJvm() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                4,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(5),
                Duration.ZERO,
                0,
                0,
                1_000,
                3));
    try (InProcessRun run =
        new InProcessRun(
            infrastructure.endpoints(),
            dir.resolve("state"),
            2,
            Map.of(WindowSettings.IDLE_TIMEOUT, "2s"))) {
      final List<String> command =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-jar",
                  JAR.toString(),
                  "run",
                  "-s",
                  HttpSettings.PORT + "=0"));
      run.config()
          .originalsStrings()
          .forEach(
              (key, value) -> {
                command.add("-s");
                command.add(key + "=" + value);
              });
      final Path log = dir.resolve("processor.log");
      final Process processor =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      try {
        run.send(readings);
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      } finally {
        processor.destroy();
        final boolean ended = processor.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
          processor.destroyForcibly();
        }
        assertThat(ended)
            .as("SIGTERM ends it; it printed:%n%s", Files.readString(log, StandardCharsets.UTF_8))
            .isTrue();
      }
      assertThat(Files.readString(log, StandardCharsets.UTF_8))
          .doesNotContain("NoClassDefFoundError")
          .doesNotContain("ClassNotFoundException");
    }
  }
}
