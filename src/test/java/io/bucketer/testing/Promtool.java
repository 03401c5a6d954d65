package io.bucketer.testing;

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

/**
 * Prometheus' {@code promtool}, where it is on the PATH (Debian's package {@code prometheus};
 * {@code .ci/run} fetches it): the tests that use it are skipped, saying so, where it is not, since
 * the build does not depend on it.
 */
public final class Promtool {

  /** Why a test that needs promtool was skipped. */
  public static final String MISSING =
      "promtool is not on the PATH (install Debian's package prometheus, or put its promtool on"
          + " the PATH, to run this check)";

  private final Path program;

  private Promtool(final Path program) {
    this.program = program;
  }

  /** What one run of promtool said. */
  public record Result(int exitCode, String output) {}

  /** promtool on the PATH, if there is one. */
  public static Optional<Promtool> onPath() {
    final String path = System.getenv().getOrDefault("PATH", "");
    return Stream.of(path.split(File.pathSeparator))
        .filter(directory -> !directory.isEmpty())
        .map(directory -> Path.of(directory, "promtool"))
        .filter(Files::isExecutable)
        .findFirst()
        .map(Promtool::new);
  }

  /** Runs {@code promtool arguments...} in {@code directory}, with {@code input} on its stdin. */
  public Result run(final Path directory, final String input, final String... arguments)
      throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>();
    command.add(program.toString());
    command.addAll(List.of(arguments));
    final Path stdin = Files.createTempFile("promtool", ".in");
    final Path output = Files.createTempFile("promtool", ".out");
    try {
      Files.writeString(stdin, input, StandardCharsets.UTF_8);
      final Process process =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .redirectInput(stdin.toFile())
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("promtool " + String.join(" ", arguments) + " took over 60 s");
      }
      return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(stdin);
      Files.deleteIfExists(output);
    }
  }
}
