package io.bucketer.bench;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.embedded.MongoServerProcess.Stored;
import io.bucketer.embedded.ProcessorProcess;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.utils.Utils;

/**
 * The memory benchmark: many series, each reporting at a steady rate in real time, into a processor
 * in a JVM of its own with a fixed heap; samples its live heap (after a full GC), its resident
 * memory and its state directory while it runs, and the Kafka records and transaction markers each
 * topic was written per reading ({@link TopicRecords}) and the bytes it was sent ({@link
 * TopicBytes}): a live fleet's cost to the cluster. Its figures are taken over the stretch after a
 * warm-up, which starts the processor, opens every series' windows and lets the JIT compile.
 */
public final class MemoryBench {

  /**
   * What to run; see {@code bucketer bench memory --help}. The fleet reports for {@code warmup},
   * then for the measured {@code duration}. {@code cli} is the command line whose {@code run}
   * starts the processor's JVM ({@code BucketerCli}, which starts this benchmark too).
   */
  public record Options(
      int series,
      Duration interval,
      Duration warmup,
      Duration duration,
      Duration sampleEvery,
      String heap,
      int inputPartitions,
      Map<String, String> processorSettings,
      Class<?> cli) {

    /** The same run with {@code sensors} series. */
    public Options withSeries(final int sensors) {
      return new Options(
          sensors,
          interval,
          warmup,
          duration,
          sampleEvery,
          heap,
          inputPartitions,
          processorSettings,
          cli);
    }
  }

  static final String INPUT_TOPIC = "bench.memory.readings";

  private final Options options;
  private final PrintStream out;
  private final boolean recordStages;

  public MemoryBench(final Options options, final PrintStream out) {
    this(options, out, false);
  }

  /**
   * @param recordStages whether to record the processor's stacks over the measured stretch, to
   *     split its CPU by stage ({@link ProcessorStages}); JFR's buffers would add to the memory
   *     this benchmark is about, so only the live fleets' cost asks for it
   */
  public MemoryBench(final Options options, final PrintStream out, final boolean recordStages) {
    this.options = options;
    this.out = out;
    this.recordStages = recordStages;
  }

  /**
   * What one fleet's run came to: every sample, and the measured stretch's figures (null when too
   * few samples fell in it).
   */
  public record Result(
      List<MemorySample> samples,
      MemorySample.Measured measured,
      TopicRecords.PerReading perReading,
      ProcessorStages.Breakdown stages,
      CpuByProcess.Cores cores) {}

  /** Runs the fleet for the duration and prints one line per sample, then a summary. */
  public Result run() throws Exception {
    final double rate = LiveFleet.rate(options);
    out.printf(
        "bucketer bench memory: %,d series, one reading every %s each (%,.0f readings/s),"
            + " for %s of warm-up and %s measured; processor heap %s, with the deploy files' JVM"
            + " options %s; the MongoDB stand-in stores of each bucket only"
            + " the fields the sink matches on (nothing else is read back)%n",
        options.series(),
        TimeSpans.format(options.interval().toMillis()),
        rate,
        TimeSpans.format(options.warmup().toMillis()),
        TimeSpans.format(options.duration().toMillis()),
        options.heap(),
        String.join(" ", ProcessorProcess.PRODUCTION_JVM));
    final Path work = Files.createTempDirectory("bucketer-bench-memory-");
    // Outside the work directory, which goes at the end: the processor's log stays to be read.
    final Path log = Files.createTempFile("bucketer-bench-memory-processor-", ".log");
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        // In its own JVM: the stand-in keeps every document on its heap (see MongoServerProcess),
        // and here only their keys: at a live fleet's size whole buckets fill that heap in minutes,
        // and buckets without their readings in ten (BucketKeysOnly).
        MongoServerProcess mongo = MongoServerProcess.start(Stored.KEYS_ONLY);
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      broker.createTopic(INPUT_TOPIC, options.inputPartitions(), Map.of());
      final int httpPort = LoopbackPorts.free(1).get(0);
      final Path stateDir = work.resolve("state");
      try (ProcessorProcess processor =
              ProcessorProcess.start(
                  options.cli(),
                  "bench-memory",
                  settings(broker, mongo, registry, stateDir, httpPort),
                  log,
                  ProcessorProcess.productionJvm(options.heap()));
          KafkaProducer<byte[], byte[]> producer =
              FleetProducer.to(broker.bootstrapServers(), INPUT_TOPIC);
          Admin admin =
              Admin.create(
                  Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
        final ProcessorProbe probe = new ProcessorProbe(processor, httpPort, stateDir);
        probe.awaitMetrics(Duration.ofMinutes(2));
        final LiveFleet fleet = LiveFleet.start(options, producer, registry.url(), INPUT_TOPIC);
        final Result result = sample(probe, fleet, admin, mongo.processHandle());
        out.println("processor log: " + log);
        return result;
      }
    } finally {
      Utils.delete(work.toFile());
    }
  }

  private Result sample(
      final ProcessorProbe probe,
      final LiveFleet fleet,
      final Admin admin,
      final ProcessHandle standIn)
      throws Exception {
    final List<MemorySample> samples = new ArrayList<>();
    // Where the machine's cores went at each sample: the processor's, the stand-in's, the broker's
    // and the fleet's, so that a processor given fewer cores says who took them.
    final List<CpuByProcess> cpu = new ArrayList<>();
    CpuByProcess previousCpu = CpuByProcess.read(probe.pid(), standIn);
    // The topics' end offsets and bytes at each sample: what the cluster was written meanwhile.
    final List<Map<String, Long>> records = new ArrayList<>();
    final List<Map<String, Long>> bytes = new ArrayList<>();
    final SampleSchedule schedule =
        new SampleSchedule(options.sampleEvery(), options.warmup(), options.duration());
    final ScheduledStages stages =
        recordStages ? new ScheduledStages(probe.pid(), options.warmup()) : null;
    out.println(MemorySample.header() + "   cores: " + CpuByProcess.Cores.header());
    while (schedule.hasNext() && !fleet.hasFailed()) {
      final Duration elapsed = schedule.awaitNext();
      if (!probe.isAlive()) {
        throw new IllegalStateException("the processor died; see its log");
      }
      final MemorySample sample = probe.sample(elapsed, fleet::acknowledged);
      final CpuByProcess cpuNow = CpuByProcess.read(probe.pid(), standIn);
      final Duration sinceLast =
          samples.isEmpty()
              ? sample.elapsed()
              : sample.elapsed().minus(samples.get(samples.size() - 1).elapsed());
      samples.add(sample);
      cpu.add(cpuNow);
      records.add(TopicRecords.read(admin));
      bytes.add(TopicBytes.read());
      out.println(sample.row() + "          " + cpuNow.since(previousCpu, sinceLast).row());
      previousCpu = cpuNow;
      if (stages != null) {
        stages.sampled(sample.elapsed());
      }
    }
    final ProcessorStages.Recorded recorded = stages == null ? null : stages.stop();
    out.println(probe.stateDirectoryByStore());
    fleet.join();
    final int measuredFrom = firstAfterWarmup(samples);
    if (samples.size() - measuredFrom < 2) {
      out.println(
          "too few samples after the warm-up for a summary; run longer or sample more often");
      return new Result(samples, null, null, null, null);
    }
    final MemorySample.Measured measured =
        MemorySample.summarise(samples, options.series(), measuredFrom, out);
    final int last = samples.size() - 1;
    final TopicRecords.PerReading perReading =
        TopicRecords.summarise(
            records.get(measuredFrom),
            records.get(last),
            bytes.get(measuredFrom),
            bytes.get(last),
            measured.processed(),
            INPUT_TOPIC,
            out);
    // The stage recording began right after the first measured sample's heap read, and ends
    // after the last one's: the benchmark's own collections in between are those it spans.
    final ProcessorStages.Breakdown breakdown =
        recorded == null
            ? null
            : recorded.perThousand(
                measured.processed(),
                MemorySample.benchGc(samples.get(measuredFrom), samples.get(last)).toNanos());
    if (breakdown != null) {
      breakdown.print(out);
    }
    final CpuByProcess.Cores cores = coresOver(samples, cpu, measuredFrom);
    return new Result(samples, measured, perReading, breakdown, cores);
  }

  /**
   * Prints the cores each process took over the measured stretch, and over each of its halves (a
   * processor that fell behind late in a run was given fewer cores then, or cost more per reading:
   * this says which); returns the whole stretch's.
   */
  private CpuByProcess.Cores coresOver(
      final List<MemorySample> samples, final List<CpuByProcess> cpu, final int measuredFrom) {
    final int last = samples.size() - 1;
    final int middle = measuredFrom + (last - measuredFrom) / 2;
    out.printf("%-36s %s%n", "cores taken, by process", CpuByProcess.Cores.header());
    final CpuByProcess.Cores whole = cores(samples, cpu, measuredFrom, last);
    out.printf("%-36s %s%n", "  over the measured stretch", whole.row());
    if (middle > measuredFrom && middle < last) {
      out.printf("%-36s %s%n", "  its first half", cores(samples, cpu, measuredFrom, middle).row());
      out.printf("%-36s %s%n", "  its second half", cores(samples, cpu, middle, last).row());
    }
    out.println(
        "  (CPU time over wall time; the processor's includes the benchmark's heap reads, the"
            + " broker is the benchmark's JVM but the fleet's threads, other is the rest of the"
            + " machine's busy time, idle its cores no process wanted)");
    return whole;
  }

  private static CpuByProcess.Cores cores(
      final List<MemorySample> samples,
      final List<CpuByProcess> cpu,
      final int from,
      final int to) {
    return cpu.get(to)
        .since(cpu.get(from), samples.get(to).elapsed().minus(samples.get(from).elapsed()));
  }

  /** The first sample taken once the warm-up was over: where the measured stretch starts. */
  private int firstAfterWarmup(final List<MemorySample> samples) {
    for (int index = 0; index < samples.size(); index++) {
      if (samples.get(index).elapsed().compareTo(options.warmup()) >= 0) {
        return index;
      }
    }
    return samples.size();
  }

  private Map<String, String> settings(
      final EmbeddedKafkaBroker broker,
      final MongoServerProcess mongo,
      final InProcessSchemaRegistry registry,
      final Path stateDir,
      final int httpPort) {
    final Map<String, String> settings =
        processorSettings(broker, registry, mongo.connectionString(), stateDir, options);
    settings.put(HttpSettings.PORT, Integer.toString(httpPort));
    return settings;
  }

  /**
   * The settings of a processor, or of a peer, under a live fleet: the bench's broker, registry and
   * input topic, MongoDB at {@code mongoUri}, its state in {@code stateDir}, and the options'
   * processor settings over those.
   */
  static Map<String, String> processorSettings(
      final EmbeddedKafkaBroker broker,
      final InProcessSchemaRegistry registry,
      final String mongoUri,
      final Path stateDir,
      final Options options) {
    final Map<String, String> settings = new HashMap<>();
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, broker.bootstrapServers());
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, registry.url());
    settings.put(MongoSettings.URI, mongoUri);
    settings.put(InputSettings.TOPIC, INPUT_TOPIC);
    settings.put(KafkaSettings.APPLICATION_ID, "bucketer-bench-memory");
    settings.put(KafkaSettings.TOPIC_REPLICATION_FACTOR, "1");
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    settings.putAll(options.processorSettings());
    return settings;
  }
}
