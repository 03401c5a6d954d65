package io.bucketer.bench;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.query.StoredDocuments;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.DeadLetterTopic;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.utils.Utils;

/**
 * The soak: a live fleet (by default 20,000 sensors, one reading a second each) for a long run (by
 * default an hour) into one processor as deployed (its own JVM, the deploy files' JVM options, a
 * static member), or several ({@link Options#instances()}), with faults on a schedule spread over
 * the run ({@link SoakFaults}), one of which starts one more instance and a later one stops it.
 * Every minute a row says what the processor and the cluster hold and how far behind it is; at the
 * end it says whether each figure stayed flat, and checks every reading the fleet sent against
 * MongoDB, window by window, and every reading of the flooding tenant against MongoDB and the
 * dead-letter topic.
 */
public final class SoakBench {

  /** The {@code instance.id} of the instance that joins and leaves. */
  private static final String JOINER_ID = "soak-joiner";

  /** The {@code instance.id} of the first instance, which the faults kill and freeze. */
  private static final String FIRST_ID = "soak";

  /** The flooding tenant's prefix; its limits are {@link Options#floodLimit()}. */
  static final String FLOOD_PREFIX = "flood-";

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");

  private static final double MIB = 1024.0 * 1024.0;
  private static final double GIB = 1024.0 * MIB;

  /**
   * What the stand-in's memory backend holds on its heap per reading of a minute bucket that keeps
   * its measurements: 9.4 GiB held about 21 million readings of 20,000 sensors (2026-12-04), when
   * its collections began to hold up writes for more than 30 s.
   */
  static final int STAND_IN_BYTES_PER_READING = 450;

  /** How long the processor may take, once the fleet stopped, to write its last buckets. */
  private static final Duration DRAIN_DEADLINE = Duration.ofMinutes(10);

  /**
   * How long one read of the check may take: the stand-in took longer than 30 s to sum the counts
   * of an hour of 4,000 sensors' minute documents (240,000), and the hour's check failed on it.
   */
  private static final Duration CHECK_READ_TIMEOUT = Duration.ofMinutes(10);

  /**
   * What to run; see {@code bucketer bench soak --help}.
   *
   * @param instances the instances that run from the start; the faults kill and freeze the first,
   *     and one more joins and leaves
   * @param floodLimit the flooding tenant's limits, {@code <active>/<new a minute>}
   */
  public record Options(
      int sensors,
      int instances,
      Duration interval,
      Duration duration,
      Duration sampleEvery,
      String heap,
      int inputPartitions,
      SoakFaults.Strength faults,
      String floodLimit,
      Map<String, String> processorSettings,
      Class<?> cli) {

    public Options {
      if (instances < 1) {
        throw new IllegalArgumentException(
            "--instances must be at least 1: the instances running from the start, got "
                + instances);
      }
    }
  }

  /** Whether the soak lost nothing and counted nothing twice. */
  public record Result(boolean exact, List<SoakSample> samples) {}

  private final Options options;
  private final PrintStream out;

  public SoakBench(final Options options, final PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * A warning when the MongoDB stand-in cannot hold what the fleet sends: it keeps every document
   * as objects on its heap, and past about {@link #STAND_IN_BYTES_PER_READING} bytes a reading its
   * collections hold up the sink's writes longer than the sink waits, so that the run measures the
   * stand-in. A real MongoDB keeps them on disk.
   */
  static Optional<String> standInRoom(
      final int sensors, final Duration interval, final Duration duration, final long heap) {
    final double readings = sensors * (double) duration.toMillis() / interval.toMillis();
    if (readings * STAND_IN_BYTES_PER_READING <= heap) {
      return Optional.empty();
    }
    final double fits = (double) heap / STAND_IN_BYTES_PER_READING;
    return Optional.of(
        String.format(
            Locale.ROOT,
            "warning: the MongoDB stand-in keeps every reading on its heap, about %d bytes each:"
                + " this run's %,.0f readings want %.1f GiB, and its heap is %.1f GiB. Past about"
                + " %,.0f readings (%.0f minutes into the run) its collections will hold up the writes, and"
                + " the run will measure the stand-in; fewer --sensors or a shorter --duration"
                + " keep within it.",
            STAND_IN_BYTES_PER_READING,
            readings,
            readings * STAND_IN_BYTES_PER_READING / GIB,
            heap / GIB,
            fits,
            duration.toMillis() * fits / readings / 60_000));
  }

  public Result run() throws Exception {
    final MemoryBench.Options fleetOptions =
        new MemoryBench.Options(
            options.sensors(),
            options.interval(),
            Duration.ZERO,
            options.duration(),
            options.sampleEvery(),
            options.heap(),
            options.inputPartitions(),
            options.processorSettings(),
            options.cli());
    out.println(Machine.describe());
    out.println(Machine.load("at the start"));
    out.printf(
        "bucketer bench soak: %,d sensors, one reading every %s each (%,.0f readings/s), for %s,"
            + " into %d instance%s; faults at %s%n",
        options.sensors(),
        TimeSpans.format(options.interval().toMillis()),
        LiveFleet.rate(fleetOptions),
        TimeSpans.format(options.duration().toMillis()),
        options.instances(),
        options.instances() == 1 ? "" : "s",
        SoakFaults.schedule(options.duration()).stream()
            .map(at -> TimeSpans.format(at.toMillis()))
            .toList());
    standInRoom(
            options.sensors(),
            options.interval(),
            options.duration(),
            MongoServerProcess.heapBytes())
        .ifPresent(out::println);
    final Path work = Files.createTempDirectory("bucketer-bench-soak-");
    final Path logs = Files.createTempDirectory("bucketer-bench-soak-logs-");
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        MongoServerProcess mongo = MongoServerProcess.start();
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      broker.createTopic(MemoryBench.INPUT_TOPIC, options.inputPartitions(), Map.of());
      final List<Integer> httpPorts = LoopbackPorts.free(options.instances() + 1);
      final Path stateDir = work.resolve("state");
      final Map<String, String> settings =
          MemoryBench.processorSettings(
              broker, registry, mongo.connectionString(), stateDir, fleetOptions);
      settings.put(HttpSettings.PORT, Integer.toString(httpPorts.get(0)));
      settings.put(KafkaSettings.INSTANCE_ID, FIRST_ID);
      settings.putIfAbsent(
          WindowSettings.SERIES_LIMIT_TENANTS, FLOOD_PREFIX + "=" + options.floodLimit());
      final BucketerConfig config = new BucketerConfig(settings);
      // The instance that joins and leaves: the same application, its own name, port and state
      // directory, as one more pod of the StatefulSet would have.
      final Path joinerStateDir = work.resolve("state-joiner");
      final Map<String, String> joinerSettings =
          instanceSettings(settings, JOINER_ID, httpPorts.get(options.instances()), joinerStateDir);
      try (SoakInstances others = new SoakInstances(options, settings, httpPorts, work, logs);
          SoakProcessor processor =
              new SoakProcessor(
                  "processor",
                  options.cli(),
                  settings,
                  options.heap(),
                  httpPorts.get(0),
                  stateDir,
                  logs);
          SoakProcessor joiner =
              new SoakProcessor(
                  "joiner",
                  options.cli(),
                  joinerSettings,
                  options.heap(),
                  httpPorts.get(1),
                  joinerStateDir,
                  logs);
          KafkaProducer<byte[], byte[]> producer =
              FleetProducer.to(broker.bootstrapServers(), MemoryBench.INPUT_TOPIC);
          Admin admin =
              Admin.create(
                  Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
          StoredDocuments store =
              new StoredDocuments(
                  mongo.connectionString(),
                  config.mongoDatabase(),
                  config.collectionPrefix(),
                  CHECK_READ_TIMEOUT)) {
        processor.start();
        others.start();
        final TenantFlood flood =
            new TenantFlood(producer, registry.url(), MemoryBench.INPUT_TOPIC, FLOOD_PREFIX);
        final SoakFaults faults =
            new SoakFaults(
                new SoakFaults.Targets(
                    processor,
                    joiner,
                    SoakFaults.place(options.instances() + 1),
                    JOINER_ID + "-",
                    mongo,
                    flood,
                    admin,
                    MemoryBench.INPUT_TOPIC,
                    config.applicationId()),
                options.faults());
        final LiveFleet fleet =
            LiveFleet.start(fleetOptions, producer, registry.url(), MemoryBench.INPUT_TOPIC);
        final List<SoakSample> samples =
            sample(processor, joiner, others, fleet, faults, admin, config);
        fleet.join();
        out.println();
        out.println("faults:");
        faults
            .outcomes()
            .forEach(
                outcome ->
                    out.printf(
                        "  at %s: %s (%s)%n",
                        TimeSpans.format(outcome.at().toMillis()),
                        outcome.line(),
                        TimeSpans.format(outcome.took().toMillis())));
        out.println();
        out.println("stayed flat?");
        SoakSample.printFlatness(samples, out);
        final boolean exact = check(fleet, flood, store, broker, config);
        out.println();
        out.println(Machine.load("at the end"));
        out.println("processor logs: " + logs);
        return new Result(exact, samples);
      }
    } finally {
      Utils.delete(work.toFile());
    }
  }

  /**
   * A row every {@code sampleEvery} while the fleet sends; the faults run on their schedule in a
   * thread of their own meanwhile.
   */
  private List<SoakSample> sample(
      final SoakProcessor processor,
      final SoakProcessor joiner,
      final SoakInstances others,
      final LiveFleet fleet,
      final SoakFaults faults,
      final Admin admin,
      final BucketerConfig config)
      throws Exception {
    final List<SoakSample> samples = new ArrayList<>();
    final long started = System.nanoTime();
    final ExecutorService faultThread =
        Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "soak-faults"));
    final List<Duration> schedule = SoakFaults.schedule(options.duration());
    final CompletableFuture<Void> allFaults =
        CompletableFuture.runAsync(() -> runFaults(faults, schedule, started), faultThread);
    faultThread.shutdown();
    LatencyHistogram lastHistogram = null;
    out.println(SoakSample.header());
    try {
      while (!fleet.isDone()) {
        // Pacing, not synchronisation: one row per interval.
        TimeUnit.MILLISECONDS.sleep(options.sampleEvery().toMillis());
        if (processor.diedOnItsOwn()) {
          throw new IllegalStateException("the processor died on its own; see " + processor.log());
        }
        if (joiner.diedOnItsOwn()) {
          throw new IllegalStateException(
              "the instance that joined died on its own; see " + joiner.log());
        }
        others.failIfOneDied();
        final Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        final ProcessorProbe probe = processor.probe();
        MemorySample memory = null;
        if (probe != null) {
          try {
            memory = probe.sample(elapsed, fleet::acknowledged);
          } catch (RuntimeException e) {
            memory = null; // frozen or killed while sampled: this row has no processor figures
          }
        }
        final SoakSample.ClusterFigures cluster =
            SoakSample.ClusterFigures.read(
                admin, MemoryBench.INPUT_TOPIC, config.bucketsTopic(), config.applicationId());
        double p99 = Double.NaN;
        if (memory != null) {
          final LatencyHistogram now = memory.closeToVisible();
          final LatencyHistogram stretch =
              lastHistogram == null || now.count() < lastHistogram.count()
                  ? now
                  : now.since(lastHistogram);
          p99 = stretch.quantileMillis(0.99);
          lastHistogram = now;
        }
        final SoakSample row =
            new SoakSample(
                elapsed,
                fleet.acknowledged(),
                memory == null ? Double.NaN : memory.liveHeapBytes() / MIB,
                memory == null ? Double.NaN : memory.residentBytes() / MIB,
                memory == null ? Double.NaN : memory.stateDirectoryBytes() / MIB,
                cluster.inputMib(),
                cluster.internalMib(),
                cluster.bucketsMib(),
                cluster.inputLag(),
                p99,
                lastFault(faults));
        samples.add(row);
        out.println(row.row());
      }
      allFaults.get(DRAIN_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      allFaults.cancel(true);
    }
    return samples;
  }

  /**
   * The settings of one more instance of the same application: its own {@code instance.id}, HTTP
   * port and state directory, as another pod of the StatefulSet would have.
   */
  static Map<String, String> instanceSettings(
      final Map<String, String> first, final String id, final int httpPort, final Path stateDir) {
    final Map<String, String> settings = new HashMap<>(first);
    settings.put(HttpSettings.PORT, Integer.toString(httpPort));
    settings.put(KafkaSettings.INSTANCE_ID, id);
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    return settings;
  }

  private void runFaults(
      final SoakFaults faults, final List<Duration> schedule, final long startedNanos) {
    final SoakFaults.Kind[] kinds = SoakFaults.Kind.values();
    try {
      for (int index = 0; index < kinds.length; index++) {
        final Duration at = schedule.get(index);
        final long dueNanos = startedNanos + at.toNanos();
        // Pacing, not synchronisation: each fault waits for its time in the schedule.
        final long wait = dueNanos - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        faults.run(kinds[index], at);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      throw new IllegalStateException("a fault failed to run", e);
    }
  }

  private static String lastFault(final SoakFaults faults) {
    final List<SoakFaults.Outcome> outcomes = faults.outcomes();
    return outcomes.isEmpty() ? "" : "after: " + outcomes.get(outcomes.size() - 1).kind();
  }

  /**
   * Waits until MongoDB holds every reading it should, then compares window by window; prints and
   * returns whether everything is exact.
   */
  private boolean check(
      final LiveFleet fleet,
      final TenantFlood flood,
      final StoredDocuments store,
      final EmbeddedKafkaBroker broker,
      final BucketerConfig config)
      throws InterruptedException {
    out.println();
    out.println("checking every reading against MongoDB and the dead-letter topic ...");
    final long fleetReadings = fleet.acknowledged();
    final long floodReadings = flood.acknowledged();
    Map<String, Long> deadLetters = Map.of();
    final long drainStarted = System.nanoTime();
    long expected = 0;
    long lastSaid = drainStarted;
    while (System.nanoTime() - drainStarted < DRAIN_DEADLINE.toNanos()) {
      deadLetters =
          DeadLetterTopic.countByReason(broker.bootstrapServers(), config.deadLetterTopic());
      expected =
          fleetReadings
              + floodReadings
              - deadLetters.getOrDefault(DeadLetterHeaders.SERIES_LIMIT, 0L);
      // Minute windows all close once the fleet stops; the last hour's may still be open.
      final long stored = store.readingsInBuckets(MINUTE);
      if (stored >= expected) {
        break;
      }
      if (System.nanoTime() - lastSaid > Duration.ofSeconds(30).toNanos()) {
        out.printf(
            "  MongoDB holds %,d of the %,d readings the minute buckets should hold%n",
            stored, expected);
        lastSaid = System.nanoTime();
      }
      // Polling MongoDB while the last windows close, as the tests do, every 5 s.
      TimeUnit.SECONDS.sleep(5);
    }
    out.printf(
        "  the fleet sent %,d readings, the flooding tenant %,d; dead letters by reason %s;"
            + " drained in %.0f s%n",
        fleetReadings, floodReadings, deadLetters, (System.nanoTime() - drainStarted) / 1e9);
    final Instant checkedAt = Instant.now();
    final List<SoakTally.Result> results = new ArrayList<>();
    for (final Granularity granularity : List.of(MINUTE, HOUR)) {
      results.add(
          SoakTally.compare(
              fleet.generatorOptions(),
              granularity,
              store,
              sensorId -> !sensorId.startsWith(FLOOD_PREFIX),
              checkedAt));
    }
    SoakTally.print(results, out);
    final long refused = deadLetters.getOrDefault(DeadLetterHeaders.SERIES_LIMIT, 0L);
    boolean exact = results.stream().allMatch(SoakTally.Result::exact);
    // The flood's minute windows have all closed; its hour windows may be open still.
    final long floodInBuckets = results.get(0).otherReadings();
    final boolean floodExact = floodInBuckets + refused == floodReadings;
    out.printf(
        "  the flooding tenant's readings: %,d in minute buckets + %,d dead-lettered as %s = %,d"
            + " of %,d sent: %s%n",
        floodInBuckets,
        refused,
        DeadLetterHeaders.SERIES_LIMIT,
        floodInBuckets + refused,
        floodReadings,
        floodExact ? "exact" : "NOT EXACT");
    exact &= floodExact;
    final long otherLetters =
        deadLetters.entrySet().stream()
            .filter(reason -> !reason.getKey().equals(DeadLetterHeaders.SERIES_LIMIT))
            .mapToLong(Map.Entry::getValue)
            .sum();
    if (otherLetters > 0) {
      out.printf("  dead letters for other reasons: %,d (NOT EXACT)%n", otherLetters);
      exact = false;
    }
    out.println(
        exact
            ? "every reading is in exactly one bucket of each granularity, or dead-lettered"
                + " as its tenant's limit says"
            : "NOT EXACT: see the lines above");
    return exact;
  }
}
