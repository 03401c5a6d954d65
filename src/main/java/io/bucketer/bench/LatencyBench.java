package io.bucketer.bench;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.embedded.ProcessorProcess;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Latency at a fixed offered load, as the OpenMessaging Benchmark and the Yahoo streaming benchmark
 * report it: readings produced in real time at fixed rates, each into a fresh processor, and per
 * rate the close-to-visible latency of the windows that closed after a warm-up. Not the default
 * {@code bench}'s latency, which is measured while a backlog drains and so measures the backlog.
 */
public final class LatencyBench {

  /**
   * What to run; see {@code bucketer bench latency --help}. {@code capacity}: readings a second the
   * shares are taken of; when empty and a rate is a share, it is measured first by a backlog run of
   * {@code capacitySpan} of event time. {@code cli} is the command line whose {@code run} starts
   * each processor's JVM.
   */
  public record Options(
      List<OfferedRate> rates,
      OptionalDouble capacity,
      Duration capacitySpan,
      int sensors,
      Duration warmup,
      int closes,
      String heap,
      int inputPartitions,
      Map<String, String> processorSettings,
      Class<?> cli,
      Duration timeout) {

    public Options {
      rates = List.copyOf(rates);
      processorSettings = Map.copyOf(processorSettings);
      if (closes < 1 || sensors < 1) {
        throw new IllegalArgumentException("measure at least one close, with at least one sensor");
      }
    }
  }

  private final Options options;
  private final PrintStream out;

  public LatencyBench(final Options options, final PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /** Runs every rate and prints the table; returns the figures for whoever wants to check them. */
  public LatencyResults run() throws Exception {
    out.println(Machine.describe());
    out.println(Machine.load("at the start"));
    out.printf(
        "bucketer bench latency: %,d sensors; per rate a fresh processor in its own JVM (heap %s,"
            + " %s), a warm-up of %s, then window closes measured: %d%n",
        options.sensors(),
        options.heap(),
        String.join(" ", ProcessorProcess.PRODUCTION_JVM),
        TimeSpans.format(options.warmup().toMillis()),
        options.closes());
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        // In its own JVM, as a MongoDB server is a process of its own (see MongoServerProcess).
        MongoServerProcess mongo = MongoServerProcess.start();
        StandInOperations operations = new StandInOperations(mongo.connectionString());
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      final LatencyInfrastructure infrastructure =
          new LatencyInfrastructure(broker, mongo, registry, operations);
      final double capacity = capacity(infrastructure);
      final List<LatencyResults.AtRate> rates = new ArrayList<>();
      for (int index = 0; index < options.rates().size(); index++) {
        rates.add(atRate(infrastructure, options.rates().get(index), capacity, index + 1));
      }
      final LatencyResults results = new LatencyResults(capacity, capacitySource(capacity), rates);
      results.print(out);
      out.println(Machine.load("at the end"));
      return results;
    }
  }

  private String capacitySource(final double capacity) {
    if (Double.isNaN(capacity)) {
      return "not needed, every rate given";
    }
    if (options.capacity().isPresent()) {
      return String.format("%,.0f readings/s, given", capacity);
    }
    return String.format(
        "%,.0f readings/s, measured: bucketer in this JVM, cold, catching up on a backlog of %s"
            + " of %d sensors reporting every second",
        capacity, TimeSpans.format(options.capacitySpan().toMillis()), CapacityRun.SENSORS);
  }

  private double capacity(final LatencyInfrastructure infrastructure) throws Exception {
    if (options.rates().stream().noneMatch(OfferedRate::shareOfCapacity)) {
      return Double.NaN;
    }
    if (options.capacity().isPresent()) {
      return options.capacity().getAsDouble();
    }
    out.printf(
        "[capacity] a backlog of %s of event time, %d sensors every second, into bucketer in this"
            + " JVM, until MongoDB holds every bucket%n",
        TimeSpans.format(options.capacitySpan().toMillis()), CapacityRun.SENSORS);
    final double capacity =
        CapacityRun.readingsPerSecond(
            infrastructure,
            options.capacitySpan(),
            options.inputPartitions(),
            options.timeout(),
            out);
    infrastructure.dropDatabase(CapacityRun.RUN);
    return capacity;
  }

  private LatencyResults.AtRate atRate(
      final LatencyInfrastructure infrastructure,
      final OfferedRate rate,
      final double capacity,
      final int number)
      throws Exception {
    final double wanted = rate.readingsPerSecond(capacity);
    // Each sensor reports every whole number of milliseconds: the offered rate is the nearest.
    final long intervalMillis = Math.max(1, Math.round(options.sensors() * 1000.0 / wanted));
    final LatencyAtRate.Plan plan = new LatencyAtRate.Plan(rate.label(), intervalMillis, options);
    final String run = "latency-" + number;
    final Path log = Files.createTempFile("bucketer-bench-" + run + "-", ".log");
    out.printf(
        "[%d] %s: %,.0f readings/s, %,d sensors each every %d ms; processor log %s%n",
        number, rate.label(), plan.offered(), options.sensors(), intervalMillis, log);
    final LatencyResults.AtRate result = new LatencyAtRate(infrastructure, plan, run).run(log);
    infrastructure.dropDatabase(run);
    out.printf(
        "    produced %,.0f/s, consumed %,.0f/s; %,d buckets, window closes measured: %d;"
            + " p50 <= %.0f ms, p99 <= %.0f ms%n",
        result.produced(),
        result.consumed(),
        result.buckets(),
        result.closes(),
        result.p50Millis(),
        result.p99Millis());
    return result;
  }
}
