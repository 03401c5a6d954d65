package io.bucketer.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where row 2's CPU went, in ms per 1,000 readings: the measured CPU time of this JVM's Java
 * threads shared out between the stages by the JFR samples' shares; the JIT compilers' and the GC's
 * threads, measured; what remains of this JVM's measured CPU, unattributed; and the MongoDB
 * stand-in's, measured in its own process. The lines add up to the row's CPU per 1,000 readings.
 */
record StageBreakdown(StageRecording.Sampled sampled, PhaseClock.Measured time, long readings) {

  static final String UNATTRIBUTED = "unattributed (VM, RocksDB's, JFR's threads)";

  static final String TOTAL = "total, row 2's CPU ms/1k";

  /** One printed line: its name and ms per 1,000 readings. */
  record Line(String name, double millisPerThousand) {}

  /** The stages' lines, in {@link StageClassifier.Stage}'s order, each with its share. */
  List<Line> stages() {
    return shareOut(sampled.samples(), perThousand(sampled.javaThreads()));
  }

  /**
   * {@code millisPerThousand} of CPU shared out between the stages by their {@code samples}, a line
   * for each stage in {@link StageClassifier.Stage}'s order.
   */
  static List<Line> shareOut(
      final Map<StageClassifier.Stage, Double> samples, final double millisPerThousand) {
    final double total = samples.values().stream().mapToDouble(Double::doubleValue).sum();
    final List<Line> lines = new ArrayList<>();
    for (final StageClassifier.Stage stage : StageClassifier.Stage.values()) {
      final double share = samples.getOrDefault(stage, 0.0);
      lines.add(new Line(stage.label(), total == 0 ? 0 : millisPerThousand * share / total));
    }
    return lines;
  }

  /** The stages, then the measured parts outside them, the remainder and the stand-in. */
  List<Line> lines() {
    final List<Line> lines = new ArrayList<>(stages());
    lines.add(new Line("JIT compilers (measured)", perThousand(time.jit())));
    lines.add(new Line("GC threads (measured)", perThousand(sampled.gc())));
    lines.add(new Line(UNATTRIBUTED, unattributed()));
    lines.add(
        new Line("MongoDB stand-in (own process, not bucketer's cost)", perThousand(time.mongo())));
    return lines;
  }

  /** This JVM's CPU that neither the samples, the JIT nor the GC account for. */
  double unattributed() {
    return perThousand(
        time.cpuWithoutMongo().minus(time.jit()).minus(sampled.gc()).minus(sampled.javaThreads()));
  }

  /** The row's CPU per 1,000 readings, every process: what the lines add up to. */
  double total() {
    return perThousand(time.cpu());
  }

  /** JFR's own threads' CPU as a share of this JVM's: the recording's overhead. */
  double recorderShare() {
    final long jvm = time.cpuWithoutMongo().toNanos();
    return jvm == 0 ? 0 : sampled.recorder().toNanos() / (double) jvm;
  }

  void print(final PrintStream out) {
    out.printf(
        "Where row 2's CPU went, ms per 1,000 readings (JFR, %d ms samples, %,.0f in the measured"
            + " phase; the recording's own threads took %.1f%% of this JVM's CPU)%n",
        StageRecording.EXECUTION_PERIOD_MILLIS, sampled.total(), 100 * recorderShare());
    for (final Line line : lines()) {
      out.printf("  %-56s %8.2f%n", line.name(), line.millisPerThousand());
    }
    out.printf("  %-56s %8.2f%n", TOTAL, total());
    out.println(
        "  The stages share out the Java threads' measured CPU by their samples (rules:"
            + " StageClassifier). Kafka clients: fetch, poll,");
    out.println(
        "  producer I/O, (de)compression and transactions of every topic together. Unattributed:"
            + " what no sample sees, such");
    out.println(
        "  as the VM's threads, RocksDB's compactions and flushes, JFR's sampler, threads that"
            + " ended. The stand-in: context only.");
  }

  private double perThousand(final Duration cpu) {
    return cpu.toNanos() / 1e6 / (readings / 1000.0);
  }
}
