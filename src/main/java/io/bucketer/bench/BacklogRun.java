package io.bucketer.bench;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.HttpSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.embedded.MongoServerProcess.Stored;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.ingest.SchemaRegistryClient;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Utils;

/**
 * The same build's backlog figure, in the same run as the live fleets and measured the way they
 * are: the default benchmark's readings (a few sensors, one reading a second each, hours of event
 * time), written to the input topic before the processor starts, then drained by a processor in a
 * JVM of its own with the live runs' settings, heap and JVM options, on a broker and a MongoDB
 * stand-in of its own. Its JVM's CPU per 1,000 readings is taken from the sample by which it had
 * processed a third of them (the start and the JIT's warm-up before) to the first by which it had
 * processed them all: there a commit holds dozens of readings of each series, the regime every
 * figure of the default benchmark comes from, where a live fleet's holds one.
 */
final class BacklogRun {

  private static final Duration SAMPLE_EVERY = Duration.ofSeconds(1);
  private static final Duration AT_MOST = Duration.ofMinutes(20);

  /**
   * What the drain came to: {@code readings} written, {@code measured} of them processed over the
   * measured part, in {@code seconds}, at {@code cpuMillisPerThousand} of the processor's CPU.
   */
  record Result(
      int sensors,
      Duration span,
      long readings,
      long measured,
      double seconds,
      double cpuMillisPerThousand) {

    double readingsPerSecond() {
      return measured / Math.max(seconds, 1e-3);
    }
  }

  private record Sample(double seconds, long processed, Duration cpu) {}

  private BacklogRun() {}

  /**
   * Drains a backlog of {@code sensors} reporting every {@code options.interval()} for {@code span}
   * of event time through a processor set up as {@code options} says.
   */
  static Result run(
      final int sensors,
      final Duration span,
      final MemoryBench.Options options,
      final PrintStream out)
      throws Exception {
    final BenchFleet fleet = new BenchFleet(sensors, options.interval(), span, 42);
    out.printf(
        "bucketer bench live, the same build's backlog: %,d sensors, one reading every %s each, %s"
            + " of event time (%,d readings), written before the processor starts, then drained;"
            + " processor heap %s, with the deploy files' JVM options%n",
        sensors,
        TimeSpans.format(options.interval().toMillis()),
        TimeSpans.format(span.toMillis()),
        fleet.readings(),
        options.heap());
    final Path work = Files.createTempDirectory("bucketer-bench-backlog-");
    final Path log = Files.createTempFile("bucketer-bench-backlog-processor-", ".log");
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        MongoServerProcess mongo = MongoServerProcess.start(Stored.KEYS_ONLY);
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      broker.createTopic(MemoryBench.INPUT_TOPIC, options.inputPartitions(), Map.of());
      final BenchFleet.Sent sent =
          fleet.send(
              broker.bootstrapServers(),
              new SchemaRegistryClient(registry.url()),
              MemoryBench.INPUT_TOPIC,
              ThroughputBench.GRANULARITIES,
              BucketLayout.finestKeepsMeasurements(ThroughputBench.MAX_MEASUREMENTS),
              written -> {
                if (written % 1_000_000 == 0) {
                  out.printf("    written %,d%n", written);
                }
              });
      final int httpPort = LoopbackPorts.free(1).get(0);
      final Path stateDir = work.resolve("state");
      final Map<String, String> settings =
          MemoryBench.processorSettings(
              broker, registry, mongo.connectionString(), stateDir, options);
      settings.put(HttpSettings.PORT, Integer.toString(httpPort));
      try (ProcessorProcess processor =
          ProcessorProcess.start(
              options.cli(),
              "bench-backlog",
              settings,
              log,
              ProcessorProcess.productionJvm(options.heap()))) {
        final ProcessorProbe probe = new ProcessorProbe(processor, httpPort, stateDir);
        probe.awaitMetrics(Duration.ofMinutes(2));
        final Result result = drain(probe, sensors, span, sent.readings(), out);
        out.println("processor log: " + log);
        return result;
      }
    } finally {
      Utils.delete(work.toFile());
    }
  }

  private static Result drain(
      final ProcessorProbe probe,
      final int sensors,
      final Duration span,
      final long readings,
      final PrintStream out)
      throws InterruptedException {
    final List<Sample> samples = new ArrayList<>();
    final Deadline deadline = new Deadline(AT_MOST);
    final long started = System.nanoTime();
    long processed = 0;
    while (processed < readings) {
      deadline.check(
          String.format("the backlog to drain (%,d of %,d processed)", processed, readings));
      if (!probe.isAlive()) {
        throw new IllegalStateException("the processor died; see its log");
      }
      // Pacing, not synchronisation: a sample a second until the condition above holds, within
      // the deadline.
      TimeUnit.MILLISECONDS.sleep(SAMPLE_EVERY.toMillis());
      processed = probe.readingsProcessed();
      samples.add(new Sample((System.nanoTime() - started) / 1e9, processed, probe.cpuTime()));
      if (samples.size() % 10 == 0) {
        out.printf(
            "    %4.0f s: %,d of %,d processed%n",
            samples.get(samples.size() - 1).seconds(), processed, readings);
      }
    }
    final Sample to = samples.get(samples.size() - 1);
    final Sample from =
        samples.stream()
            .filter(sample -> sample.processed() >= readings / 3)
            .findFirst()
            .filter(third -> third != to)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the backlog drained within one sample: too few readings to measure"));
    final long measured = to.processed() - from.processed();
    final Result result =
        new Result(
            sensors,
            span,
            readings,
            measured,
            to.seconds() - from.seconds(),
            to.cpu().minus(from.cpu()).toNanos() / 1e6 / Math.max(1, measured / 1000.0));
    out.printf(
        "the backlog drained: %,d readings measured (from a third of the backlog on) in %.1f s, %,.0f"
            + " readings/s, %.1f ms of the processor's CPU per 1,000%n",
        measured, result.seconds(), result.readingsPerSecond(), result.cpuMillisPerThousand());
    return result;
  }
}
