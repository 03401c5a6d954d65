package io.bucketer.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@code jcmd}, run against another JVM of the benchmark (the processor, the stand-in).
 */
final class Jcmd {

  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  private Jcmd() {}

  /**
   * Runs {@code command} (for example {@code GC.run}) in the JVM {@code pid} and waits for it.
   *
   * @throws IllegalStateException if it fails or takes over a minute
   */
  static void run(final long pid, final String command) throws InterruptedException {
    final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      final Process process =
          new ProcessBuilder(jcmd.toString(), Long.toString(pid), command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException("jcmd " + command + " failed on process " + pid);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + jcmd, e);
    }
  }
}
