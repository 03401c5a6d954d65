package io.bucketer.bench;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.BucketerConfig;
import io.bucketer.embedded.ChildProcesses;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.ProcessorProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * A live fleet into one of bucketer's peers ({@link LivePeer}), like for like with {@link
 * MemoryBench}'s run of bucketer: the same fleet, a broker and a registry of its own, the peer in a
 * JVM of its own with the same JVM options and heap, on the Kafka Streams settings a processor with
 * the same configuration uses. Over the stretch after the warm-up: the share of the readings sent
 * that it processed (its committed input offsets: one reading a record), the Kafka records and
 * bytes it wrote per reading, and its CPU per 1,000 readings, split by stage.
 */
final class LivePeerRun {

  private static final String INPUT_TOPIC = MemoryBench.INPUT_TOPIC;

  private final LivePeer.Kind kind;
  private final MemoryBench.Options options;
  private final PrintStream out;

  LivePeerRun(final LivePeer.Kind kind, final MemoryBench.Options options, final PrintStream out) {
    this.kind = kind;
    this.options = options;
    this.out = out;
  }

  /** One peer's figures over the measured stretch. */
  record Result(
      LivePeer.Kind kind,
      int series,
      double keptUpShare,
      long behindAtTheEnd,
      double cpuMillisPerThousand,
      TopicRecords.PerReading perReading,
      ProcessorStages.Breakdown stages) {}

  /** What the harness sees of the peer at one moment. */
  private record Sample(
      Duration elapsed,
      long sent,
      long processed,
      Duration cpu,
      Map<String, Long> records,
      Map<String, Long> bytes) {}

  Result run() throws Exception {
    out.printf(
        "%s: %,d series, one reading every %s each, %s of warm-up and %s measured%n",
        kind.description(),
        options.series(),
        TimeSpans.format(options.interval().toMillis()),
        TimeSpans.format(options.warmup().toMillis()),
        TimeSpans.format(options.duration().toMillis()));
    final Path work = Files.createTempDirectory("bucketer-bench-peer-");
    final Path log = Files.createTempFile("bucketer-bench-peer-" + kind.cliName() + "-", ".log");
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      broker.createTopic(INPUT_TOPIC, options.inputPartitions(), Map.of());
      final Map<String, String> settings = settings(broker, registry, work.resolve("state"));
      final BucketerConfig config = new BucketerConfig(Map.copyOf(settings));
      broker.createTopic(LivePeer.windowsTopic(config), config.seriesPartitions(), Map.of());
      final Process peer = start(settings, log);
      try (KafkaProducer<byte[], byte[]> producer =
              FleetProducer.to(broker.bootstrapServers(), INPUT_TOPIC);
          Admin admin =
              Admin.create(
                  Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
        final LiveFleet fleet = LiveFleet.start(options, producer, registry.url(), INPUT_TOPIC);
        return sample(peer, fleet, admin, LivePeer.applicationId(config, kind));
      } finally {
        peer.destroy();
        if (!peer.waitFor(1, TimeUnit.MINUTES)) {
          peer.destroyForcibly();
        }
        ChildProcesses.ended(peer);
        out.println("peer log: " + log);
      }
    } finally {
      Utils.delete(work.toFile());
    }
  }

  private Result sample(
      final Process peer, final LiveFleet fleet, final Admin admin, final String group)
      throws Exception {
    final List<Sample> samples = new ArrayList<>();
    final SampleSchedule schedule =
        new SampleSchedule(options.sampleEvery(), options.warmup(), options.duration());
    final ScheduledStages stages = new ScheduledStages(peer.pid(), options.warmup());
    while (schedule.hasNext() && !fleet.hasFailed()) {
      final Duration elapsed = schedule.awaitNext();
      if (!peer.isAlive()) {
        throw new IllegalStateException(kind.description() + " died; see its log");
      }
      final long processed = processed(admin, group);
      final Sample sample =
          new Sample(
              elapsed,
              fleet.acknowledged(),
              processed,
              cpu(peer),
              TopicRecords.read(admin),
              TopicBytes.read());
      samples.add(sample);
      out.printf(
          "  %6.0f s  sent %,12d  processed %,12d  CPU %8.1f s%n",
          elapsed.toMillis() / 1000.0,
          sample.sent(),
          sample.processed(),
          sample.cpu().toMillis() / 1000.0);
      stages.sampled(elapsed);
    }
    final ProcessorStages.Recorded recorded = stages.stop();
    fleet.join();
    final int from = firstAfterWarmup(samples);
    if (samples.size() - from < 2 || recorded == null) {
      throw new IllegalStateException(
          "too few samples after the warm-up for " + kind.description() + "; run longer");
    }
    final Sample first = samples.get(from);
    final Sample last = samples.get(samples.size() - 1);
    final long processed = last.processed() - first.processed();
    final double cpu = (last.cpu().minus(first.cpu())).toNanos() / 1e6 / (processed / 1000.0);
    final TopicRecords.PerReading perReading =
        TopicRecords.summarise(
            first.records(),
            last.records(),
            first.bytes(),
            last.bytes(),
            processed,
            INPUT_TOPIC,
            out);
    final ProcessorStages.Breakdown breakdown = recorded.perThousand(processed);
    breakdown.print(out);
    final Result result =
        new Result(
            kind,
            options.series(),
            last.processed() / (double) Math.max(1, last.sent()),
            last.sent() - last.processed(),
            cpu,
            perReading,
            breakdown);
    out.printf(
        "%s: processed %.1f%% of what was sent, %,d behind at the end, CPU %.1f ms per 1,000"
            + " readings%n",
        kind.description(), 100 * result.keptUpShare(), result.behindAtTheEnd(), cpu);
    return result;
  }

  private int firstAfterWarmup(final List<Sample> samples) {
    for (int index = 0; index < samples.size(); index++) {
      if (samples.get(index).elapsed().compareTo(options.warmup()) >= 0) {
        return index;
      }
    }
    return samples.size();
  }

  /** The input records the peer has committed: under exactly-once, with each transaction. */
  private static long processed(final Admin admin, final String group) throws Exception {
    final Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get(1, TimeUnit.MINUTES);
    return committed.entrySet().stream()
        .filter(partition -> partition.getKey().topic().equals(INPUT_TOPIC))
        .filter(partition -> partition.getValue() != null)
        .mapToLong(partition -> partition.getValue().offset())
        .sum();
  }

  private static Duration cpu(final Process peer) {
    return peer.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  private Process start(final Map<String, String> settings, final Path log) {
    final List<String> jvm = ProcessorProcess.productionJvm(options.heap());
    final List<String> command = ChildProcesses.javaCommand(jvm, options.cli());
    command.addAll(List.of("bench", "peer", "--kind", kind.cliName()));
    settings.forEach(
        (key, value) -> {
          command.add("-s");
          command.add(key + "=" + value);
        });
    try {
      return ChildProcesses.killAtExit(
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(log.toFile()))
              .start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + kind.description(), e);
    }
  }

  /** A processor's settings, as {@link MemoryBench} gives its own; MongoDB is never reached. */
  private Map<String, String> settings(
      final EmbeddedKafkaBroker broker, final InProcessSchemaRegistry registry, final Path state) {
    return MemoryBench.processorSettings(broker, registry, "mongodb://127.0.0.1:1", state, options);
  }
}
