package io.bucketer.embedded;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The MongoDB stand-in ({@link EmbeddedMongoServer}) in a JVM of its own. Its memory backend keeps
 * every document as Java objects, gigabytes after minutes of a large fleet: in the JVM of a
 * benchmark that also runs the broker and the producer, collecting that heap took more CPU than the
 * broker did, and a real MongoDB keeps its data off any JVM's heap. Its own JVM, with the parallel
 * collector and room to grow, keeps that cost apart and small.
 */
public final class MongoServerProcess implements AutoCloseable {

  private static final String LISTENING = "mongo stand-in listening at ";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Its collector and heap: no concurrent marking of a live set that only grows, and a heap its
   * full size from the start, so that the old generation is not collected whole every time it would
   * otherwise grow.
   */
  static final List<String> JVM_OPTIONS =
      List.of("-XX:+UseParallelGC", "-XX:InitialRAMPercentage=40", "-XX:MaxRAMPercentage=40");

  /** Its heap, from {@link #JVM_OPTIONS}: 40 % of the machine's memory. */
  public static long heapBytes() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize()
        * 40
        / 100;
  }

  /** What the stand-in stores of the documents it is sent. */
  public enum Stored {
    /** Every document whole: what is read back is what was written. */
    WHOLE,
    /**
     * Of every document only the fields the sink matches on ({@link BucketKeysOnly}), for a
     * benchmark that reads nothing else back and must not be bound by the stand-in's heap.
     */
    KEYS_ONLY
  }

  private final Process process;
  private final String connectionString;

  private MongoServerProcess(final Process process, final String connectionString) {
    this.process = process;
    this.connectionString = connectionString;
  }

  /**
   * The child's entry point: starts the stand-in, counting the operations clients send ({@link
   * MongoOperationCounter}), prints where it listens, and serves until its parent closes its
   * standard input or ends it.
   */
  public static void main(final String[] args) throws IOException {
    final Stored stored = args.length > 0 ? Stored.valueOf(args[0]) : Stored.WHOLE;
    try (EmbeddedMongoServer server =
        EmbeddedMongoServer.start(
            stored == Stored.KEYS_ONLY ? new BucketKeysOnly() : new MemoryBackend(),
            MongoOperationCounter::new)) {
      System.out.println(LISTENING + server.connectionString());
      System.out.flush();
      while (System.in.read() != -1) {
        // the parent writes nothing; end of input means it is gone
      }
    }
  }

  /** Starts the stand-in in a new JVM, storing documents whole. */
  public static MongoServerProcess start() {
    return start(Stored.WHOLE);
  }

  /** Starts the stand-in in a new JVM and returns once it accepts connections. */
  public static MongoServerProcess start(final Stored stored) {
    final List<String> command =
        new ArrayList<>(ChildProcesses.javaCommand(JVM_OPTIONS, MongoServerProcess.class));
    command.add(stored.name());
    final Process process;
    try {
      process =
          ChildProcesses.killAtExit(new ProcessBuilder(command).redirectErrorStream(true).start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the MongoDB stand-in's JVM", e);
    }
    final CompletableFuture<String> listening =
        CompletableFuture.supplyAsync(() -> awaitListening(process));
    try {
      return new MongoServerProcess(
          process, listening.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while the MongoDB stand-in started", e);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "the MongoDB stand-in's JVM did not report a port within " + START_TIMEOUT, e);
    }
  }

  /** Reads the child's output up to its listening line; the rest of its output is drained. */
  private static String awaitListening(final Process process) {
    final BufferedReader output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    try {
      String line;
      while ((line = output.readLine()) != null) {
        if (line.startsWith(LISTENING)) {
          final String address = line.substring(LISTENING.length());
          final Thread drain =
              new Thread(() -> output.lines().forEach(ignored -> {}), "mongo-stand-in-output");
          drain.setDaemon(true);
          drain.start();
          return address;
        }
      }
      throw new IllegalStateException(
          "the MongoDB stand-in's JVM ended with status " + process.waitFor());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A connection string for the MongoDB drivers, e.g. {@code mongodb://127.0.0.1:40123}. */
  public String connectionString() {
    return connectionString;
  }

  /** Its JVM, for whoever counts the CPU time it takes. */
  public ProcessHandle processHandle() {
    return process.toHandle();
  }

  /**
   * SIGSTOP: the stand-in stands still, connections open, answering nothing, as a MongoDB whose
   * host froze; {@link #thaw()} lets it go on.
   */
  public void freeze() {
    ChildProcesses.signal(process, "STOP");
  }

  /** SIGCONT: a frozen stand-in answers again. */
  public void thaw() {
    ChildProcesses.signal(process, "CONT");
  }

  /** Ends its JVM; its data is gone. */
  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ChildProcesses.ended(process);
  }
}
