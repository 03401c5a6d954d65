package io.bucketer.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a processor's CPU went over a stretch, when it runs in a JVM of its own: a JFR recording of
 * its stacks, started and stopped with {@code jcmd}, read back with row 2's rules ({@link
 * StageRecording#samples}, {@link StageClassifier}), and the CPU time of its threads read from
 * {@code /proc} by their names.
 *
 * <p>The threads no sample sees are measured apart, by name: the GC's, the JIT compilers',
 * RocksDB's own (flushes and compactions), JFR's, and the VM's. What the process used besides them
 * is its Java threads', shared out between the stages by the samples' shares. A thread that ended
 * during the stretch no longer has a name to be measured by, so its time lands with the Java
 * threads'.
 */
final class ProcessorStages {

  private static final String RECORDING = "bucketer-bench-stages";
  static final String WARM_UP_RECORDING = "bucketer-bench-jfr-start";

  /** The collector's threads, by their names in {@code /proc}. */
  static final Predicate<String> GC_THREADS =
      name -> name.startsWith("GC Thread") || name.startsWith("G1 ");

  private static final String GC = "GC threads";

  /**
   * The threads measured apart, by their names as {@code /proc} cuts them (15 characters). Declared
   * after {@link #GC_THREADS}, which it holds: static fields are set in the order they are written,
   * and a predicate read before it was set is null, which {@link NamedThreadsCpu} then reads as
   * "cannot tell", 0.
   */
  static final Map<String, Predicate<String>> UNSAMPLED_THREADS = unsampledThreads();

  private final long pid;
  private final Path settings;
  private final Instant begin;
  private final Duration processAtBegin;
  private final Map<String, Long> threadsAtBegin;

  private ProcessorStages(final long pid, final Path settings) {
    this.pid = pid;
    this.settings = settings;
    this.threadsAtBegin = unsampledNanos(pid);
    this.processAtBegin = processCpu(pid);
    this.begin = Instant.now();
  }

  private static Map<String, Predicate<String>> unsampledThreads() {
    final Map<String, Predicate<String>> threads = new LinkedHashMap<>();
    threads.put(GC, GC_THREADS);
    threads.put(
        "JIT compilers", name -> name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler"));
    threads.put(
        "RocksDB's own threads (flushes, compactions)", name -> name.startsWith("rocksdb:"));
    threads.put("JFR's threads (this recording)", name -> name.startsWith("JFR "));
    threads.put(
        "the VM's threads",
        name ->
            name.startsWith("VM ")
                || name.equals("Service Thread")
                || name.startsWith("Monitor Deflati")
                || name.startsWith("Sweeper thread"));
    return threads;
  }

  /**
   * Starts and stops an empty recording in process {@code pid}: to be called in the warm-up, so
   * that JFR has started before the stretch's recording does. A JVM's first recording, whatever it
   * records, throws its compiled code away to be compiled again; a later one does not (JDK 17; the
   * default benchmark samples its warm-up rounds for the same reason). Started with the stretch, at
   * 100,000 live sensors that took the processor above a core for about 50 seconds and put 1.9 -
   * 2.6 ms per 1,000 readings on the JIT's threads over three minutes: the benchmark's cost,
   * counted as the processor's and the peers', but not in the backlog's, which records nothing
   * (docs/benchmarks.md, "JFR's start-up was in the live runs' measured stretch").
   */
  static void startJfrInWarmUp(final long pid) throws InterruptedException {
    try {
      final Path empty =
          settingsFile(
              """
              <?xml version="1.0" encoding="UTF-8"?>
              <configuration version="2.0" label="bucketer bench, JFR started in the warm-up"/>
              """);
      try {
        Jcmd.run(pid, "JFR.start name=" + WARM_UP_RECORDING + " settings=" + empty);
        Jcmd.run(pid, "JFR.stop name=" + WARM_UP_RECORDING);
      } finally {
        Files.deleteIfExists(empty);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts recording process {@code pid}'s stacks with the periods row 2 samples its own at; the
   * stretch begins when this returns.
   */
  static ProcessorStages start(final long pid) throws InterruptedException {
    try {
      final Path settings = settingsFile(jfrSettings());
      Jcmd.run(pid, "JFR.start name=" + RECORDING + " settings=" + settings);
      return new ProcessorStages(pid, settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A temporary JFR settings file holding {@code jfc}, for {@code jcmd JFR.start settings=}. */
  private static Path settingsFile(final String jfc) throws IOException {
    final Path file = Files.createTempFile("bucketer-bench-jfr-", ".jfc");
    Files.writeString(file, jfc, StandardCharsets.UTF_8);
    return file;
  }

  /**
   * JFR's settings: the two samplers, at {@link StageRecording}'s periods, and the JIT's
   * deoptimizations without their stacks: a count that does not swing with the machine's load, and
   * the sign of a JIT that gave up recompiling a method and deoptimizes it whenever a branch it
   * judged never taken is taken (docs/benchmarks.md, "The JIT's deoptimization storm").
   */
  private static String jfrSettings() {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <configuration version="2.0" label="bucketer bench stages">
          <event name="jdk.Deoptimization">
            <setting name="enabled">true</setting>
            <setting name="stackTrace">false</setting>
          </event>
          <event name="jdk.ExecutionSample">
            <setting name="enabled">true</setting>
            <setting name="period">%d ms</setting>
          </event>
          <event name="jdk.NativeMethodSample">
            <setting name="enabled">true</setting>
            <setting name="period">%d ms</setting>
          </event>
        </configuration>
        """
        .formatted(StageRecording.EXECUTION_PERIOD_MILLIS, StageRecording.NATIVE_PERIOD_MILLIS);
  }

  /** Ends the stretch and the recording, and reads what the process used meanwhile. */
  Recorded stop() throws InterruptedException {
    final Instant end = Instant.now();
    final long process = processCpu(pid).minus(processAtBegin).toNanos();
    final Map<String, Long> unsampled = unsampledNanos(pid);
    unsampled.replaceAll((threads, nanos) -> nanos - threadsAtBegin.get(threads));
    try {
      final Path file = Files.createTempFile("bucketer-bench-stages-", ".jfr");
      try {
        Jcmd.run(pid, "JFR.stop name=" + RECORDING + " filename=" + file);
        return new Recorded(
            StageRecording.samples(file, begin, end, false),
            process,
            unsampled,
            deoptimizations(file, begin, end));
      } finally {
        Files.deleteIfExists(file);
        Files.deleteIfExists(settings);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The JIT's deoptimizations the recording saw between {@code begin} and {@code end}. */
  private static long deoptimizations(final Path file, final Instant begin, final Instant end)
      throws IOException {
    long count = 0;
    try (RecordingFile events = new RecordingFile(file)) {
      while (events.hasMoreEvents()) {
        final RecordedEvent event = events.readEvent();
        if (event.getEventType().getName().equals("jdk.Deoptimization")
            && !event.getStartTime().isBefore(begin)
            && !event.getStartTime().isAfter(end)) {
          count++;
        }
      }
    }
    return count;
  }

  /**
   * What a stretch's recording saw: samples per stage, the process's CPU time, and that of the
   * threads measured apart, in nanoseconds; and the JIT's deoptimizations.
   */
  record Recorded(
      Map<StageClassifier.Stage, Double> samples,
      long processNanos,
      Map<String, Long> unsampled,
      long deoptimizations) {

    /** Shared out over the {@code readings} processed in the stretch. */
    Breakdown perThousand(final long readings) {
      return perThousand(readings, 0);
    }

    /**
     * Shared out over the {@code readings} processed in the stretch, less {@code benchGcNanos}: the
     * collector's CPU in the full collections the benchmark itself asked for in the stretch, to
     * read the live heap ({@link ProcessorProbe}), which the processor would not have made.
     */
    Breakdown perThousand(final long readings, final long benchGcNanos) {
      final Map<String, Long> apart = new LinkedHashMap<>(unsampled);
      apart.computeIfPresent(GC, (threads, nanos) -> Math.max(0, nanos - benchGcNanos));
      final long processorNanos = processNanos - benchGcNanos;
      final double thousands = readings / 1000.0;
      final List<StageBreakdown.Line> measuredApart = new ArrayList<>();
      long measuredApartNanos = 0;
      for (final Map.Entry<String, Long> threads : apart.entrySet()) {
        measuredApartNanos += threads.getValue();
        measuredApart.add(
            new StageBreakdown.Line(
                threads.getKey() + " (measured)", threads.getValue() / 1e6 / thousands));
      }
      final double javaThreads = (processorNanos - measuredApartNanos) / 1e6 / thousands;
      final List<StageBreakdown.Line> lines =
          new ArrayList<>(StageBreakdown.shareOut(samples, javaThreads));
      lines.addAll(measuredApart);
      return new Breakdown(
          lines,
          processorNanos / 1e6 / thousands,
          samples.values().stream().mapToDouble(Double::doubleValue).sum(),
          deoptimizations / thousands);
    }
  }

  /**
   * The processor's CPU over the stretch in ms per 1,000 readings: the stages, then the threads
   * measured apart; {@code lines} add up to {@code total}.
   */
  record Breakdown(
      List<StageBreakdown.Line> lines,
      double total,
      double samples,
      double deoptimizationsPerThousand) {

    void print(final PrintStream out) {
      out.printf(
          "Where the processor's CPU went, ms per 1,000 readings (JFR in its JVM, %d ms samples,"
              + " %,.0f over the measured stretch)%n",
          StageRecording.EXECUTION_PERIOD_MILLIS, samples);
      for (final StageBreakdown.Line line : lines) {
        out.printf("  %-56s %8.2f%n", line.name(), line.millisPerThousand());
      }
      out.printf("  %-56s %8.2f%n", "total, the processor's CPU ms/1k", total);
      out.println(
          "  The stages share out the Java threads' CPU (the process's, less the threads measured"
              + " apart) by their samples.");
      out.printf(
          "The JIT's deoptimizations per 1,000 readings: %.3f (each sends a compiled frame back"
              + " to the interpreter)%n",
          deoptimizationsPerThousand);
    }
  }

  private static Map<String, Long> unsampledNanos(final long pid) {
    final Map<String, Long> nanos = new LinkedHashMap<>();
    UNSAMPLED_THREADS.forEach(
        (threads, name) -> nanos.put(threads, NamedThreadsCpu.nanos(pid, name).orElse(0)));
    return nanos;
  }

  private static Duration processCpu(final long pid) {
    return ProcessHandle.of(pid)
        .flatMap(process -> process.info().totalCpuDuration())
        .orElse(Duration.ZERO);
  }
}
