package io.bucketer.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a reload when the content of any of some files changes: a certificate renewed by
 * cert-manager, a password added to a users file. Compares the files' digests at an interval rather
 * than their modification times, because a Kubernetes secret volume swaps a symbolic link (the
 * files' own times do not change) and a renewal may write the certificate and the key a moment
 * apart: a reload that fails (a key that does not fit its certificate yet) keeps what was in force
 * and is tried again at the next change or interval.
 *
 * <p>Written here rather than taken from a library: Jetty's {@code KeyStoreScanner} watches a key
 * store file, not PEM files, and the JDK's {@code WatchService} misses the symbolic-link swap.
 */
public final class WatchedFiles implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WatchedFiles.class);

  private final List<Path> files;
  private final Runnable reload;
  private final String what;
  private final ScheduledExecutorService timer;
  private byte[] lastDigest;
  private boolean lastFailed;

  private WatchedFiles(final List<Path> files, final Runnable reload, final String what) {
    this.files = List.copyOf(files);
    this.reload = reload;
    this.what = what;
    this.lastDigest = digest();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              final Thread thread = new Thread(task, "bucketer-watch-" + what.replace(' ', '-'));
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Checks {@code files} every {@code interval}, and calls {@code reload} once they changed.
   *
   * @param what what the files are, for the log: "the HTTP certificate"
   */
  public static WatchedFiles watch(
      final List<Path> files, final Duration interval, final String what, final Runnable reload) {
    final WatchedFiles watched = new WatchedFiles(files, reload, what);
    watched.timer.scheduleWithFixedDelay(
        watched::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return watched;
  }

  /** Reloads now if the files changed since the last reload; for tests and the timer. */
  public synchronized void check() {
    final byte[] now = digest();
    if (Arrays.equals(now, lastDigest) && !lastFailed) {
      return;
    }
    try {
      reload.run();
      lastDigest = now;
      if (lastFailed) {
        LOG.info("{} reloaded from {}", what, files);
      } else {
        LOG.info("{} changed and was reloaded from {}", what, files);
      }
      lastFailed = false;
    } catch (SecurityMaterialException e) {
      if (!lastFailed || !Arrays.equals(now, lastDigest)) {
        LOG.warn(
            "{} changed but cannot be reloaded, the one before stays in force: {}",
            what,
            e.getMessage());
      }
      lastDigest = now;
      lastFailed = true;
    }
  }

  private byte[] digest() {
    try {
      final MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (final Path file : files) {
        try {
          digest.update(Files.readAllBytes(file));
        } catch (IOException e) {
          digest.update((byte) 1); // unreadable for now: a change, checked again next time
        }
      }
      return digest.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
