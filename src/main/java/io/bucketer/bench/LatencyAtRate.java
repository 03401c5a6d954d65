package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.HttpSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.utils.Utils;

/**
 * One offered rate of {@code bench latency}: a fresh processor in a JVM of its own, started as the
 * deploy files start it, fed in real time by {@code sensors} sensors that each report every {@code
 * interval}, their timestamps the wall clock's. After a warm-up, the measured part spans whole
 * window closes: it starts and ends half a window after a close ({@link CloseSchedule}), and the
 * difference of the processor's meters between its two ends holds exactly the buckets of the
 * windows that closed within it.
 *
 * <p>In its own JVM rather than in the bench's: the bench's JVM also runs the broker and the
 * producer, whose garbage and collections would be charged to the processor's latency; a deployed
 * processor has its JVM, its heap and its collector ({@link ProcessorProcess#PRODUCTION_JVM}) to
 * itself. The price: its latencies are read from its Prometheus histogram, to the resolution of the
 * histogram's buckets.
 */
final class LatencyAtRate {

  /**
   * One rate of {@code options}: its {@code label}, each sensor reporting every {@code
   * intervalMillis}.
   */
  record Plan(String label, long intervalMillis, LatencyBench.Options options) {

    /** Readings a second: the sensors over their interval. */
    double offered() {
      return options.sensors() * 1000.0 / intervalMillis;
    }
  }

  /**
   * Scrape points are a window apart; the next rate starts a few seconds after the previous one's
   * last scrape point, while its processor stops. Asking for a whole window of warm-up from that
   * start would add a window to every rate: up to this much less is taken as a whole one.
   */
  static final Duration WARMUP_TOLERANCE = Duration.ofSeconds(10);

  private static final String LATENCY = "bucketer_bucket_close_to_visible_seconds";
  private static final String WRITE_LATENCY = "bucketer_sink_write_latency_seconds_sum";

  /** What the meters said at one scrape point. */
  private record Snapshot(
      long nanos,
      long produced,
      double consumed,
      LatencyHistogram latency,
      double writeSeconds,
      long documents) {}

  private final LatencyInfrastructure infrastructure;
  private final Plan plan;
  private final String run;

  LatencyAtRate(final LatencyInfrastructure infrastructure, final Plan plan, final String run) {
    this.infrastructure = infrastructure;
    this.plan = plan;
    this.run = run;
  }

  /** Runs the rate; {@code log} receives the processor's output. */
  LatencyResults.AtRate run(final Path log) throws Exception {
    final String topic = LatencyInfrastructure.inputTopic(run);
    infrastructure.broker().createTopic(topic, plan.options().inputPartitions(), Map.of());
    final Path stateDir = Files.createTempDirectory("bucketer-bench-latency-");
    final int httpPort = LoopbackPorts.free(1).get(0);
    final Map<String, String> settings =
        new HashMap<>(infrastructure.processorSettings(run, stateDir));
    settings.put(HttpSettings.PORT, Integer.toString(httpPort));
    settings.putAll(plan.options().processorSettings());
    final BucketerConfig config = new BucketerConfig(new HashMap<>(settings));
    final CloseSchedule schedule =
        new CloseSchedule(
            Duration.ofMillis(config.granularities().get(0).sizeMillis()), config.grace());
    final AtomicBoolean stop = new AtomicBoolean();
    try (ProcessorProcess processor =
            ProcessorProcess.start(
                plan.options().cli(),
                "bench-" + run,
                settings,
                log,
                ProcessorProcess.productionJvm(plan.options().heap()));
        KafkaProducer<byte[], byte[]> producer =
            FleetProducer.to(infrastructure.broker().bootstrapServers(), topic)) {
      final ProcessorProbe probe = new ProcessorProbe(processor, httpPort, stateDir);
      final ReadingSimulator simulator =
          new ReadingSimulator(
              producer,
              new ReadingEncoder(new SchemaRegistryClient(infrastructure.registry().url()), topic),
              topic);
      final Instant started = Instant.now();
      final CompletableFuture<Long> sending =
          CompletableFuture.supplyAsync(
              () -> simulator.run(untilStopped(fleet(started), stop), plan.offered()));
      final Deadline deadline = new Deadline(plan.options().timeout());
      final Instant ready = awaitFirstReading(probe, sending, deadline);
      final Instant warmedUp = started.plus(plan.options().warmup()).minus(WARMUP_TOLERANCE);
      final Instant measuredFrom =
          schedule.firstScrapeAtOrAfter(ready.isAfter(warmedUp) ? ready : warmedUp);
      sleepUntil(measuredFrom, probe, sending);
      final Snapshot from = snapshot(probe, simulator);
      sleepUntil(
          measuredFrom.plus(schedule.window().multipliedBy(plan.options().closes())),
          probe,
          sending);
      final Snapshot to = snapshot(probe, simulator);
      stop.set(true);
      sending.join();
      return result(from, to);
    } finally {
      stop.set(true);
      Utils.delete(stateDir.toFile());
    }
  }

  private LatencyResults.AtRate result(final Snapshot from, final Snapshot to) {
    final double seconds = (to.nanos() - from.nanos()) / 1e9;
    final LatencyHistogram latency = to.latency().since(from.latency());
    return new LatencyResults.AtRate(
        plan.label(),
        plan.options().sensors(),
        plan.intervalMillis(),
        plan.offered(),
        (to.produced() - from.produced()) / seconds,
        (to.consumed() - from.consumed()) / seconds,
        seconds,
        plan.options().closes(),
        latency.count(),
        latency.quantileMillis(0.5),
        latency.quantileMillis(0.99),
        latency.quantileMillis(1.0),
        to.documents() - from.documents(),
        to.writeSeconds() - from.writeSeconds());
  }

  /** Event time starts now and runs with the wall clock: windows close as they would live. */
  private ReadingGenerator fleet(final Instant start) {
    return new ReadingGenerator(
        new ReadingGenerator.Options(
            plan.options().sensors(),
            start.truncatedTo(ChronoUnit.MILLIS),
            Duration.ofMillis(plan.intervalMillis()),
            Duration.ZERO,
            0,
            0,
            Long.MAX_VALUE,
            7));
  }

  private static Iterator<Reading> untilStopped(
      final Iterator<Reading> readings, final AtomicBoolean stop) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !stop.get() && readings.hasNext();
      }

      @Override
      public Reading next() {
        return readings.next();
      }
    };
  }

  private Snapshot snapshot(final ProcessorProbe probe, final ReadingSimulator simulator) {
    final long nanos = System.nanoTime();
    final long produced = simulator.acknowledged();
    final PrometheusText metrics = probe.metrics();
    return new Snapshot(
        nanos,
        produced,
        metrics.sum("bucketer_readings_total"),
        new LatencyHistogram(metrics.histogram(LATENCY)),
        metrics.sum(WRITE_LATENCY, "outcome=\"success\""),
        infrastructure.operations().counts().writeStatements());
  }

  /** When the processor has counted its first reading: it is up, with its partitions. */
  private static Instant awaitFirstReading(
      final ProcessorProbe probe, final CompletableFuture<Long> sending, final Deadline deadline)
      throws InterruptedException {
    while (true) {
      deadline.check("the processor's first reading");
      checkRunning(probe, sending);
      try {
        if (probe.metrics().sum("bucketer_readings_total") > 0) {
          return Instant.now();
        }
      } catch (UncheckedIOException notYetListening) {
        // its HTTP endpoint opens a few seconds after its JVM starts
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
  }

  /** Waits, checking every second that the processor and the producer still run. */
  private static void sleepUntil(
      final Instant when, final ProcessorProbe probe, final CompletableFuture<Long> sending)
      throws InterruptedException {
    long left;
    while ((left = Instant.now().until(when, ChronoUnit.MILLIS)) > 0) {
      checkRunning(probe, sending);
      TimeUnit.MILLISECONDS.sleep(Math.min(left, 1000));
    }
    checkRunning(probe, sending);
  }

  private static void checkRunning(
      final ProcessorProbe probe, final CompletableFuture<Long> sending) {
    if (!probe.isAlive()) {
      throw new IllegalStateException("the processor died; see its log");
    }
    if (sending.isDone()) {
      sending.join(); // throws the producer's failure
      throw new IllegalStateException("the producer stopped before the measured part ended");
    }
  }
}
