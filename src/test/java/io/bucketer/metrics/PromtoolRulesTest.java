package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Prometheus' own checks of the alerting rules, where Prometheus' {@code promtool} is on the PATH
 * (Debian's package {@code prometheus}): the rules parse and are valid ({@code promtool check
 * rules}), and each alert fires and stays quiet as {@value AlertRulesTest#RULE_TESTS} says ({@code
 * promtool test rules}). Skipped, saying so, where promtool is not installed: the build does not
 * depend on it.
 */
class PromtoolRulesTest {

  private static final Path RULES_DIR = Path.of("deploy", "prometheus");

  private Path promtool;

  @BeforeEach
  void findPromtool() {
    final Optional<Path> found = onPath("promtool");
    assumeTrue(
        found.isPresent(),
        "promtool is not on the PATH: the promtool checks of deploy/prometheus/alerts.yml are"
            + " skipped (install Debian's package prometheus, or put its promtool on the PATH, to"
            + " run them)");
    promtool = found.get();
  }

  @Test
  void shouldPassPromtoolsCheckOfTheRules() throws Exception {
    final Result result = run("check", "rules", "alerts.yml");

    assertThat(result.exitCode()).as("promtool check rules:%n%s", result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  @Test
  void shouldPassPromtoolsUnitTestsOfTheAlerts() throws Exception {
    final Result result = run("test", "rules", "alerts.test.yml");

    assertThat(result.exitCode()).as("promtool test rules:%n%s", result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  private record Result(int exitCode, String output) {}

  private Result run(final String... arguments) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>();
    command.add(promtool.toString());
    command.addAll(List.of(arguments));
    final Path output = Files.createTempFile("promtool", ".out");
    try {
      final Process process =
          new ProcessBuilder(command)
              .directory(RULES_DIR.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("promtool " + String.join(" ", arguments) + " took over 60 s");
      }
      return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(output);
    }
  }

  private static Optional<Path> onPath(final String program) {
    final String path = System.getenv().getOrDefault("PATH", "");
    return Stream.of(path.split(File.pathSeparator))
        .filter(directory -> !directory.isEmpty())
        .map(directory -> Path.of(directory, program))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
