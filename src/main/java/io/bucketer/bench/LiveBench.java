package io.bucketer.bench;

import io.bucketer.buckets.TimeSpans;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A live fleet at several sizes: for each, that many sensors report in real time into a processor
 * in a JVM of its own with production defaults, on a broker and a MongoDB stand-in of its own
 * ({@link MemoryBench}), and the stretch after a warm-up is measured. Then one table side by side:
 * whether it kept up, what it cost the cluster per reading in records and bytes, its own CPU per
 * reading, its memory, and close → visible beside the highest rate MongoDB acknowledged buckets at
 * (the stand-in's, which bounds close → visible when a minute's windows all close at once).
 */
public final class LiveBench {

  private static final double MIB = 1024.0 * 1024.0;

  /** The backlog's sensors: the default benchmark's, whose figures a backlog's are. */
  public static final int BACKLOG_SENSORS = 100;

  private final List<Integer> fleets;
  private final List<LivePeer.Kind> peers;
  private final MemoryBench.Options options;
  private final Duration backlog;
  private final PrintStream out;

  /**
   * @param fleets the fleets' sizes, in sensors
   * @param peers the peers each fleet also runs through, after bucketer, each on its own
   * @param options what each fleet's run is, but for its size
   * @param backlog the event time of the backlog drained first by the same build, set up as the
   *     fleets' processors are ({@link BacklogRun}), whose CPU per reading the fleets' is set
   *     beside; zero for none
   */
  public LiveBench(
      final List<Integer> fleets,
      final List<LivePeer.Kind> peers,
      final MemoryBench.Options options,
      final Duration backlog,
      final PrintStream out) {
    this.fleets = List.copyOf(fleets);
    this.peers = List.copyOf(peers);
    this.options = options;
    this.backlog = backlog;
    this.out = out;
  }

  /** What a run came to: the backlog's figures (null when none was drained) and each fleet's. */
  public record Result(BacklogRun.Result backlog, List<Row> rows) {}

  /**
   * Drains the backlog, runs each fleet in turn and prints the tables; returns the backlog's and
   * each fleet's measured figures.
   */
  public Result run() throws Exception {
    out.println(Machine.describe());
    out.println(Machine.load("at the start"));
    BacklogRun.Result drained = null;
    if (!backlog.isZero()) {
      out.println();
      out.printf("== the same build's backlog, %,d sensors ==%n", BACKLOG_SENSORS);
      drained = BacklogRun.run(BACKLOG_SENSORS, backlog, options.withSeries(BACKLOG_SENSORS), out);
    }
    final List<Row> rows = new ArrayList<>();
    for (final int sensors : fleets) {
      out.println();
      out.printf("== %,d sensors ==%n", sensors);
      final MemoryBench.Result result =
          new MemoryBench(options.withSeries(sensors), out, true).run();
      final List<LivePeerRun.Result> peerResults = new ArrayList<>();
      for (final LivePeer.Kind peer : peers) {
        out.println();
        out.printf("== %,d sensors, %s ==%n", sensors, peer.description());
        peerResults.add(new LivePeerRun(peer, options.withSeries(sensors), out).run());
      }
      if (result.measured() != null) {
        rows.add(
            new Row(
                result.measured(),
                result.perReading(),
                result.stages(),
                result.cores(),
                peerResults));
      }
    }
    out.println();
    out.println(Machine.load("at the end"));
    printTable(rows);
    printBacklog(drained, rows);
    return new Result(drained, rows);
  }

  /** One fleet's figures over its measured stretch, bucketer's and its peers'. */
  public record Row(
      MemorySample.Measured measured,
      TopicRecords.PerReading perReading,
      ProcessorStages.Breakdown stages,
      CpuByProcess.Cores cores,
      List<LivePeerRun.Result> peers) {}

  private void printTable(final List<Row> rows) {
    out.println();
    out.printf(
        "Live fleets, one reading per sensor every %s, %s measured after %s of warm-up:%n",
        TimeSpans.format(options.interval().toMillis()),
        TimeSpans.format(options.duration().toMillis()),
        TimeSpans.format(options.warmup().toMillis()));
    out.printf(
        "%9s %9s %10s %9s %9s %10s %9s %9s %9s %13s %13s %10s%n",
        "sensors",
        "processed",
        "behind",
        "records",
        "bytes",
        "CPU ms",
        "heap",
        "RSS",
        "state",
        "close->visible",
        "close->visible",
        "MongoDB");
    out.printf(
        "%9s %9s %10s %9s %9s %10s %9s %9s %9s %13s %13s %10s%n",
        "",
        "of sent",
        "at the end",
        "/reading",
        "/reading",
        "/1,000",
        "peak MiB",
        "peak MiB",
        "MiB",
        "p50",
        "p99",
        "buckets/s");
    for (final Row row : rows) {
      final MemorySample.Measured measured = row.measured();
      out.printf(
          "%,9d %8.1f%% %,10d %9.4f %9.1f %10.1f %9.0f %9.0f %9.0f %13s %13s %,10.0f%n",
          measured.series(),
          100 * measured.keptUpShare(),
          measured.behindAtTheEnd(),
          row.perReading().records(),
          row.perReading().bytes(),
          measured.cpuMillisPerThousand(),
          measured.peakHeapBytes() / MIB,
          measured.peakResidentBytes() / MIB,
          measured.stateDirectoryBytes() / MIB,
          measured.closeToVisible().describe(0.5),
          measured.closeToVisible().describe(0.99),
          measured.peakBucketsWrittenPerSecond());
    }
    out.println(
        "records and bytes: bucketer's topics together, transaction markers in the records, not in"
            + " the bytes (the broker appends them itself); CPU: the processor's JVM alone;"
            + " close->visible: the bounds of the sink's histogram; MongoDB: the most buckets the"
            + " stand-in acknowledged a second between two samples, near its capacity, which bounds"
            + " close -> visible when a minute's windows all close at once (sensors / that rate, in"
            + " seconds)");
    printCores(rows);
    printStages(rows);
    printPeers(rows);
  }

  /** Each fleet's CPU per reading over the backlog's, both the same build's from this run. */
  private void printBacklog(final BacklogRun.Result drained, final List<Row> rows) {
    if (drained == null) {
      return;
    }
    out.println();
    out.printf(
        "Live against the same build's backlog (%,d sensors, %s of event time drained at %,.0f"
            + " readings/s, %.1f ms of the processor's CPU per 1,000 readings):%n",
        drained.sensors(),
        TimeSpans.format(drained.span().toMillis()),
        drained.readingsPerSecond(),
        drained.cpuMillisPerThousand());
    out.printf("%9s %10s %18s%n", "sensors", "CPU ms", "live CPU / the");
    out.printf("%9s %10s %18s%n", "", "/1,000", "backlog's");
    for (final Row row : rows) {
      out.printf(
          "%,9d %10.1f %18.2f%n",
          row.measured().series(),
          row.measured().cpuMillisPerThousand(),
          row.measured().cpuMillisPerThousand() / drained.cpuMillisPerThousand());
    }
    out.println(
        "CPU: the processor's JVM alone, every thread, in both; the backlog's from a third of it"
            + " on (its start and the JIT's warm-up before), the fleets' over their measured"
            + " stretch, the benchmark's heap reads left out");
  }

  /**
   * The cores each process took over each fleet's measured stretch: whether the processor's own
   * share fits in one core, and, when it fell behind, who had the rest of the machine.
   */
  private void printCores(final List<Row> rows) {
    out.println();
    out.println("Where the machine's cores went over the measured stretch, by fleet:");
    out.printf("%9s %s%n", "sensors", CpuByProcess.Cores.header());
    for (final Row row : rows) {
      out.printf("%,9d %s%n", row.measured().series(), row.cores().row());
    }
    out.println(
        "cores: CPU time over wall time, each a share of one core; broker: the benchmark's JVM but"
            + " the fleet's generator and producer threads; other: the rest of the machine's busy"
            + " time; idle: its cores no process wanted");
  }

  /** bucketer beside its peers under each fleet. */
  private void printPeers(final List<Row> rows) {
    if (rows.stream().allMatch(row -> row.peers().isEmpty())) {
      return;
    }
    out.println();
    out.println(
        "The same fleets through the peers, each in a JVM of its own, one after the other:");
    out.printf(
        "%9s  %-28s %9s %9s %9s %10s %18s%n",
        "sensors", "", "processed", "records", "bytes", "CPU ms", "bucketer's CPU");
    out.printf(
        "%9s  %-28s %9s %9s %9s %10s %18s%n",
        "", "", "of sent", "/reading", "/reading", "/1,000", "/ the peer's");
    for (final Row row : rows) {
      final MemorySample.Measured measured = row.measured();
      out.printf(
          "%,9d  %-28s %8.1f%% %9.4f %9.1f %10.1f %18s%n",
          measured.series(),
          "bucketer",
          100 * measured.keptUpShare(),
          row.perReading().records(),
          row.perReading().bytes(),
          measured.cpuMillisPerThousand(),
          "");
      for (final LivePeerRun.Result peer : row.peers()) {
        out.printf(
            "%,9d  %-28s %8.1f%% %9.4f %9.1f %10.1f %18.2f%n",
            peer.series(),
            peer.kind().description(),
            100 * peer.keptUpShare(),
            peer.perReading().records(),
            peer.perReading().bytes(),
            peer.cpuMillisPerThousand(),
            measured.cpuMillisPerThousand() / peer.cpuMillisPerThousand());
      }
    }
    out.println(
        "CPU: each process's own, less the full collections the benchmark asked of bucketer's"
            + " to read its heap (the peers' heaps are not sampled); records: every topic but the"
            + " input's");
  }

  /** The processor's CPU per 1,000 readings by stage, a column per fleet. */
  private void printStages(final List<Row> rows) {
    final List<Row> recorded = rows.stream().filter(row -> row.stages() != null).toList();
    if (recorded.isEmpty()) {
      return;
    }
    out.println();
    out.println("Where the processor's CPU went, ms per 1,000 readings, by fleet:");
    out.printf("  %-56s", "sensors");
    recorded.forEach(row -> out.printf(" %,9d", row.measured().series()));
    out.println();
    final List<StageBreakdown.Line> names = recorded.get(0).stages().lines();
    for (int line = 0; line < names.size(); line++) {
      out.printf("  %-56s", names.get(line).name());
      for (final Row row : recorded) {
        out.printf(" %9.2f", row.stages().lines().get(line).millisPerThousand());
      }
      out.println();
    }
    out.printf("  %-56s", "total, the processor's CPU ms/1k");
    recorded.forEach(row -> out.printf(" %9.2f", row.stages().total()));
    out.println();
    out.printf("  %-56s", "the JIT's deoptimizations per 1,000 readings (a count)");
    recorded.forEach(row -> out.printf(" %9.3f", row.stages().deoptimizationsPerThousand()));
    out.println();
  }
}
