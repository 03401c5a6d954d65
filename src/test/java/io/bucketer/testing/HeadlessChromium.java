package io.bucketer.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debian's Chromium ({@code apt-get install chromium}), headless, one child process per page: a
 * screenshot, or the DOM as the page's scripts left it. For tests of the pages the processor
 * serves; tests skip themselves ({@link #assumeAvailable()}) where it is absent.
 *
 * <p>The page gets a {@value #VIRTUAL_TIME_BUDGET_MILLIS} ms virtual-time budget before the
 * screenshot or dump: Chromium fast-forwards timers while it waits on nothing else, and holds the
 * clock while fetches are in flight, so a page's requests to the server complete first, without
 * sleeping for real. Every run has a fresh profile, deleted afterwards, and a real-time deadline
 * after which the browser and its child processes are killed.
 */
public final class HeadlessChromium {

  public static final Path EXECUTABLE = Path.of("/usr/bin/chromium");

  public static final String NOT_INSTALLED =
      "headless Chromium tests skipped: chromium not installed at "
          + EXECUTABLE
          + " (apt-get install chromium)";

  private static final Logger LOG = LoggerFactory.getLogger(HeadlessChromium.class);
  private static final AtomicBoolean SKIP_LOGGED = new AtomicBoolean();
  private static final int VIRTUAL_TIME_BUDGET_MILLIS = 15_000;
  private static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(90);
  private static final int STDERR_LINES_SHOWN = 30;

  // No sandbox: it needs user namespaces, which containers and CI runners often lack. The rest
  // keeps it from reaching outside hosts (updates, sync, QUIC probes) and from asking at startup.
  private static final List<String> FLAGS =
      List.of(
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
          "--disable-quic",
          "--window-size=1200,800",
          "--virtual-time-budget=" + VIRTUAL_TIME_BUDGET_MILLIS);

  private final Duration deadline;

  public HeadlessChromium() {
    this(DEFAULT_DEADLINE);
  }

  /**
   * @param deadline how long one run may take, in real time, before it is killed
   */
  public HeadlessChromium(final Duration deadline) {
    this.deadline = deadline;
  }

  /** Whether Chromium is installed where Debian's package puts it. */
  public static boolean available() {
    return Files.isExecutable(EXECUTABLE);
  }

  /**
   * Skips the calling test, with {@link #NOT_INSTALLED} as the reason, where Chromium is absent;
   * the reason is also logged once, so that the build's output says why, not only its reports. Call
   * it per test ({@code @BeforeEach}): a skip in {@code @BeforeAll} is reported as no test.
   */
  public static void assumeAvailable() {
    if (!available() && !SKIP_LOGGED.getAndSet(true)) {
      LOG.warn(NOT_INSTALLED);
    }
    Assumptions.assumeTrue(available(), NOT_INSTALLED);
  }

  /** A PNG of the 1200x800 window once the page settled; returns {@code file}. */
  public Path screenshot(final URI page, final Path file) {
    final Path target = file.toAbsolutePath();
    try {
      Files.createDirectories(target.getParent());
      Files.deleteIfExists(target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + target, e);
    }
    final Run run = run(page, "--screenshot=" + target);
    if (!Files.isRegularFile(target)) {
      throw new IllegalStateException(
          "chromium exited without writing " + target + run.describeStderr());
    }
    return target;
  }

  /** The page's DOM, serialized as HTML, once its scripts settled. */
  public String dumpDom(final URI page) {
    return run(page, "--dump-dom").stdout();
  }

  private record Run(String stdout, String stderr) {
    String describeStderr() {
      final List<String> lines = stderr.lines().toList();
      final List<String> last =
          lines.subList(Math.max(0, lines.size() - STDERR_LINES_SHOWN), lines.size());
      return last.isEmpty()
          ? "; its stderr is empty"
          : "; its stderr ends:\n" + String.join("\n", last);
    }
  }

  private Run run(final URI page, final String mode) {
    final Path profile;
    final Path stderr;
    try {
      profile = Files.createTempDirectory("headless-chromium-profile-");
      stderr = Files.createTempFile("headless-chromium-", ".stderr");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a profile directory for chromium", e);
    }
    final List<String> command = new ArrayList<>();
    command.add(EXECUTABLE.toString());
    command.addAll(FLAGS);
    command.add("--user-data-dir=" + profile);
    command.add(mode);
    command.add(page.toString());
    Process process = null;
    try {
      process =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectError(stderr.toFile())
              .start();
      // Read while it runs: a large DOM would fill the pipe and stall the browser.
      final InputStream out = process.getInputStream();
      final CompletableFuture<byte[]> stdout =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return out.readAllBytes();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(process);
        throw new IllegalStateException(
            "chromium did not finish "
                + page
                + " within "
                + deadline.toSeconds()
                + " s and was killed"
                + new Run("", read(stderr)).describeStderr());
      }
      final String text = new String(stdout.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
      final Run run = new Run(text, read(stderr));
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "chromium exited with " + process.exitValue() + " on " + page + run.describeStderr());
      }
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + EXECUTABLE, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while chromium ran " + page, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read chromium's output for " + page, e);
    } finally {
      if (process != null && process.isAlive()) {
        kill(process);
      }
      deleteRecursively(profile);
      deleteRecursively(stderr);
    }
  }

  /** The browser and every process it started (zygote, renderer, GPU, utility). */
  private static void kill(final Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String read(final Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e.getMessage() + ")";
    }
  }

  /** Best effort: a helper process that outlived the browser may still hold a file for a moment. */
  private static void deleteRecursively(final Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      root.toFile().deleteOnExit();
    }
  }
}
