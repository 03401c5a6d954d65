package io.bucketer.bench;

import io.bucketer.app.BucketerApp;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.BucketerConfig;
import io.bucketer.topology.InputPartitioning;
import io.bucketer.windows.HeapWindowStore;
import io.bucketer.windows.WindowCacheBudget;
import io.bucketer.windows.WindowLifecycle;
import io.bucketer.windows.WriteBehindWindows;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.LongFunction;

/**
 * The window lifecycle and its cache alone at a live fleet's pace: every series sends one reading a
 * second of event time, in the same shuffled order each second, and the cache writes its changes
 * every so many readings, as a commit does. A live commit holds one reading of each of thousands of
 * series, so each reading finds its series' state cold in memory; this is the aggregate stage's
 * part of that cost without Kafka, RocksDB or the log's encoding, measured in seconds rather than
 * the minutes a {@code bench live} run takes, and with the same production window settings.
 *
 * <p>Each round runs the same fleet twice, once for each way its readings name their series: a new
 * key object decoded for every reading, as the repartition topic's records give them, and one key
 * object per series, which every map look-up then finds by identity. The difference is what a key
 * object per reading costs: made and hashed, and compared with the stored key's strings, cold.
 *
 * <p>With {@code readingsAtOnce} above 1, each series' readings of that many seconds are applied
 * one after another, as a processor that held them that long and applied them by series would: the
 * first finds the series' state cold, the rest find it in the caches. What holding them would cost
 * (a log of the held readings, their grouping) is not in the figure; it says what the window code
 * would save.
 *
 * <p>The CPU is the bench thread's own, so the collector's threads are not in it; the first minute
 * of event time is warm-up (every window opens, the JIT compiles). The command line runs each run
 * in a JVM of its own, started with the processor's JVM options: runs one after another in one JVM
 * swung by a third and more, with the heap and the compiled code the runs before left.
 */
public final class LifecycleBench {

  /** What to run. */
  public record Options(
      int series, Duration eventTime, int readingsPerCommit, int readingsAtOnce, int rounds) {
    public Options {
      if (series < 1 || readingsPerCommit < 1 || readingsAtOnce < 1 || rounds < 1) {
        throw new IllegalArgumentException(
            "series, readings per commit, readings at once and rounds must be >= 1");
      }
      if (readingsAtOnce > 60) {
        throw new IllegalArgumentException("at most 60 readings of a series at once: a minute's");
      }
      if (eventTime.compareTo(Duration.ofMinutes(2)) < 0) {
        throw new IllegalArgumentException(
            "the event time must be at least 2m: its first minute is warm-up");
      }
    }
  }

  /** How the readings of one run name their series. */
  public enum Keys {
    DECODED("a key decoded for each reading"),
    SHARED("one key object per series");

    final String description;

    Keys(final String description) {
      this.description = description;
    }
  }

  /** One run's figures, over its measured part (after the first minute of event time). */
  public record Run(
      Keys keys,
      long readings,
      long cpuNanos,
      long closingReadings,
      long closingCpuNanos,
      long buckets,
      long changesLogged) {

    /** One line that {@link #parse} reads back: how a run's JVM hands its figures on. */
    public String toLine() {
      return String.join(
          " ",
          LINE_START,
          keys.name(),
          Long.toString(readings),
          Long.toString(cpuNanos),
          Long.toString(closingReadings),
          Long.toString(closingCpuNanos),
          Long.toString(buckets),
          Long.toString(changesLogged));
    }

    /** The run {@link #toLine} wrote, from a line that starts as it does. */
    public static Run parse(final String line) {
      final String[] fields = line.trim().split(" ");
      if (fields.length != 8 || !fields[0].equals(LINE_START)) {
        throw new IllegalArgumentException("not a run's line: " + line);
      }
      return new Run(
          Keys.valueOf(fields[1]),
          Long.parseLong(fields[2]),
          Long.parseLong(fields[3]),
          Long.parseLong(fields[4]),
          Long.parseLong(fields[5]),
          Long.parseLong(fields[6]),
          Long.parseLong(fields[7]));
    }

    /** Whether {@code line} is one {@link #toLine} wrote. */
    public static boolean isRunLine(final String line) {
      return line.startsWith(LINE_START + " ");
    }

    double nanosPerReading() {
      return cpuNanos / (double) readings;
    }

    /** The seconds in which the windows of a minute close: that minute's burst. */
    double closingNanosPerReading() {
      return closingCpuNanos / (double) closingReadings;
    }

    double otherNanosPerReading() {
      return (cpuNanos - closingCpuNanos) / (double) (readings - closingReadings);
    }
  }

  private static final String LINE_START = "lifecycle-run";

  private static final long FIRST_SECOND = 1_700_002_800_000L; // the top of an hour, UTC

  private final Options options;
  private final PrintStream out;
  private final WindowLifecycle.Settings settings;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  LifecycleBench(final Options options, final PrintStream out) {
    this.options = options;
    this.out = out;
    this.settings = productionSettings();
  }

  /** The window settings a processor runs with when nothing is configured. */
  private static WindowLifecycle.Settings productionSettings() {
    // The settings without a default say where the processor connects and what it reads: nothing
    // here does either, and none of them changes a window setting.
    final BucketerConfig defaults =
        new BucketerConfig(
            Map.of(
                "bootstrap.servers", "unused:9092",
                "mongodb.uri", "mongodb://unused",
                "input.format", "json"));
    return BucketerApp.topologySettings(
            defaults, new InputPartitioning.BySeries(defaults.seriesPartitions()))
        .lifecycle();
  }

  /** Runs one fleet with {@code keys}; the command line starts each in a JVM of its own. */
  @FunctionalInterface
  public interface Launcher {
    Run run(Keys keys) throws Exception;
  }

  /**
   * Runs every round of {@code options}, each run through {@code launcher}, printing to {@code
   * out}; returns every run.
   */
  public static List<Run> run(final Options options, final Launcher launcher, final PrintStream out)
      throws Exception {
    return new LifecycleBench(options, out).run(launcher);
  }

  /** One run of {@code options} with {@code keys}, here: what a launcher's JVM does. */
  public static Run runHere(final Options options, final Keys keys) {
    return new LifecycleBench(options, System.out).runOnce(keys);
  }

  /** Runs every round and prints each run, then the medians; returns every run. */
  private List<Run> run(final Launcher launcher) throws Exception {
    out.println(Machine.describe());
    out.println(Machine.load("at the start"));
    out.printf(
        Locale.ROOT,
        "bucketer bench lifecycle: %,d series, one reading each per second of event time, %d of a"
            + " series' readings applied at once, the cache's changes written every %,d readings,"
            + " %s of event time a run (the first minute warm-up), granularities %s; the window"
            + " lifecycle and its cache alone, over a store on the heap%n",
        options.series(),
        options.readingsAtOnce(),
        options.readingsPerCommit(),
        TimeSpans.format(options.eventTime().toMillis()),
        settings.granularities());
    out.println(
        "  round  keys                                CPU ns/reading  at the closes   between"
            + "    buckets");
    final List<Run> runs = new ArrayList<>();
    for (int round = 1; round <= options.rounds(); round++) {
      for (final Keys keys : Keys.values()) {
        final Run run = launcher.run(keys);
        runs.add(run);
        out.printf(
            Locale.ROOT,
            "  %5d  %-34s %15.0f %15.0f %9.0f %,10d%n",
            round,
            keys.description,
            run.nanosPerReading(),
            run.closingNanosPerReading(),
            run.otherNanosPerReading(),
            run.buckets());
      }
    }
    for (final Keys keys : Keys.values()) {
      final List<Double> figures =
          runs.stream().filter(run -> run.keys() == keys).map(Run::nanosPerReading).toList();
      out.printf(
          Locale.ROOT,
          "%s: %s ns of the thread's CPU per reading, median [lowest - highest] of %d runs%n",
          keys.description,
          FormatsTable.describe(
              figures.stream().mapToDouble(Double::doubleValue).toArray(), "%.0f"),
          figures.size());
    }
    out.println(Machine.load("at the end"));
    return runs;
  }

  /** One fleet through a new lifecycle and cache, its keys named as {@code keys} says. */
  Run runOnce(final Keys keys) {
    final HeapWindowStore store = new HeapWindowStore();
    final Granularity finest = settings.granularities().get(0);
    final WriteBehindWindows cache =
        new WriteBehindWindows(store, finest, new WindowCacheBudget(Long.MAX_VALUE / 2));
    final long[] buckets = {0};
    final WindowLifecycle lifecycle = new WindowLifecycle(settings, cache, opened -> {});
    lifecycle.restore(0);
    final LongFunction<SeriesKey> keyOf = seriesKeys(keys);
    final int[] order = shuffledSeries();
    final long seconds = options.eventTime().toSeconds();
    long readings = 0;
    long measured = 0;
    long cpu = 0;
    long closing = 0;
    long closingCpu = 0;
    final long grace = settings.grace().toSeconds();
    final int atOnce = options.readingsAtOnce();
    for (long second = 0; second + atOnce <= seconds; second += atOnce) {
      final long before = threads.getCurrentThreadCpuTime();
      for (final int index : order) {
        final SeriesKey series = keyOf.apply(index);
        for (long reading = second; reading < second + atOnce; reading++) {
          // each series at its own offset within the second, as a fleet's clocks are
          final long timestamp = FIRST_SECOND + reading * 1_000 + index % 1_000;
          lifecycle.accept(
              series,
              new Measurement(timestamp, 20 + (index % 7) * 0.5 + (reading % 13) * 0.25),
              null,
              reading * 1_000,
              bucket -> buckets[0]++);
          if (++readings % options.readingsPerCommit() == 0) {
            cache.writeChanges();
          }
        }
      }
      final long took = threads.getCurrentThreadCpuTime() - before;
      if (second >= 60) {
        measured += (long) order.length * atOnce;
        cpu += took;
        // the seconds in which every series' event time passes a minute's end + grace
        if ((grace - second % 60 + 60) % 60 < atOnce) {
          closing += (long) order.length * atOnce;
          closingCpu += took;
        }
      }
    }
    cache.writeChanges();
    return new Run(keys, measured, cpu, closing, closingCpu, buckets[0], store.changesLogged());
  }

  private LongFunction<SeriesKey> seriesKeys(final Keys keys) {
    final byte[][] sensorIds = new byte[options.series()][];
    final SeriesKey[] shared = new SeriesKey[options.series()];
    for (int i = 0; i < sensorIds.length; i++) {
      sensorIds[i] =
          String.format(Locale.ROOT, "gateway-%04d/sensor-%06d", i % 997, i)
              .getBytes(StandardCharsets.UTF_8);
      shared[i] = new SeriesKey(new String(sensorIds[i], StandardCharsets.UTF_8), "value");
    }
    final byte[] metric = "value".getBytes(StandardCharsets.UTF_8);
    return switch (keys) {
      case SHARED -> index -> shared[(int) index];
      case DECODED ->
          index ->
              new SeriesKey(
                  new String(sensorIds[(int) index], StandardCharsets.UTF_8),
                  new String(metric, StandardCharsets.UTF_8));
    };
  }

  /** The series in one order, the same every second and every run. */
  private int[] shuffledSeries() {
    final int[] order = new int[options.series()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    final Random random = new Random(42);
    for (int i = order.length - 1; i > 0; i--) {
      final int j = random.nextInt(i + 1);
      final int swapped = order[i];
      order[i] = order[j];
      order[j] = swapped;
    }
    return order;
  }
}
