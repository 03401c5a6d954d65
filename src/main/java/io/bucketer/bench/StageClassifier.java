package io.bucketer.bench;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which stage of bucketer's pipeline one CPU sample belongs to, from the sampled thread's name and
 * its stack ({@code class.method} frames, the top first). Pure, so that the rules are tested on
 * stacks written by hand; they were chosen from JFR recordings of row 2.
 *
 * <p>The rules, in the order they apply:
 *
 * <ol>
 *   <li><b>The bench itself</b>: a frame of {@code io.bucketer.bench} anywhere in the stack is the
 *       harness polling the stand-in, not bucketer: {@link Stage#OTHER}. Only in the bench's own
 *       JVM: in a peer's JVM ({@code bench live}), that package's frames are the peer's code, with
 *       rules of their own below.
 *   <li><b>Restoring</b>: Kafka Streams' {@code StateUpdater} thread reads changelogs: changelog.
 *   <li><b>The broker</b>: a thread of the embedded broker by its name ({@code data-plane-kafka-*},
 *       {@code kafka-N-raft-*}, {@code quorum-controller-*}, {@code broker-N-*}, {@code
 *       group-coordinator-*}, ...), or a broker frame anywhere in the stack ({@code kafka.*},
 *       {@code org.apache.kafka.server}, {@code storage}, {@code raft}, {@code controller}, {@code
 *       metadata}, {@code image}, {@code coordinator}, {@code network}, ...). The broker uses the
 *       clients' classes too, so this comes before the frame rules.
 *   <li><b>The frames, top first</b>: the frame nearest the top that some rule matches decides, and
 *       where several rules match it the most specific (longest) wins. Generic frames (the JDK,
 *       Avro, Jackson, Kafka's metrics and records, {@code RecordCollectorImpl}, {@code
 *       KafkaProducer.send}) match no rule, so work in them goes to the caller: a producer's send
 *       under a change-logging store is changelog, under the batcher repartition. The rules:
 *       <ul>
 *         <li>decode: {@code io.bucketer.ingest}, the topology's {@code ReadingDecodeProcessor} and
 *             {@code ReadingChecks};
 *         <li>repartition: the topology's {@code ReadingBatcher} (it forwards only into the
 *             repartition's sink node, so that node's sends are its), {@code PartitionBatches},
 *             {@code PartitionBatch}, {@code PartitionBatchWriter}, {@code SeriesRepeats}, {@code
 *             SeriesPartitioner}, {@code CommitTimeForwarder}, the repartition topic's serdes (the
 *             aggregator walks a batch's series itself, so its work under {@code
 *             PartitionBatch.forEachSeries} is the aggregate's);
 *         <li>the peers' code in their own JVMs: their decode's forwarding ({@code
 *             ReadingsBySeries}) is repartition; Kafka Streams' {@code KStreamWindowAggregate} and
 *             the windowed aggregate's statistics and serde are aggregate;
 *         <li>aggregate: the rest of {@code io.bucketer.topology}, {@code io.bucketer.windows},
 *             {@code io.bucketer.buckets}, Kafka Streams' store layers ({@code
 *             org.apache.kafka.streams.state}: caching, metered, RocksDB) and {@code org.rocksdb};
 *         <li>changelog: Kafka Streams' {@code ChangeLogging*} stores, {@code logChange}, the
 *             changelog reader and checkpoints;
 *         <li>sink: {@code io.bucketer.sink}, {@code io.bucketer.topics} (the closed buckets'
 *             serde, at both ends of the buckets topic), the MongoDB driver and BSON;
 *         <li>Kafka clients: the consumer ({@code org.apache.kafka.clients.consumer}, and Kafka
 *             Streams' poll phase, which queues what it fetched), the producer's {@code Sender},
 *             {@code NetworkClient}, and (de)compression, which happens inside a send or a fetch
 *             and is not split between the topics; the producer's transactions;
 *         <li>Kafka Streams' task loop: {@code StreamThread}, {@code TaskManager}, {@code
 *             TaskExecutor}, {@code StreamTask}, {@code PartitionGroup}, {@code RecordQueue}: what
 *             a record costs before and after the processors (choosing it, its queue, its metrics),
 *             and commits. These frames sit at the bottom of every processor's stack, so they
 *             decide only what no processor's frame above them claims. The nodes between processors
 *             ({@code ProcessorNode}, {@code SinkNode}, {@code ProcessorContextImpl}) have no rule:
 *             forwarding is the forwarding processor's, so the repartition's sink node is the
 *             batcher's and the buckets topic's sink node is the aggregator's;
 *       </ul>
 *   <li><b>The thread</b>, when no frame decided: producer network, admin and heartbeat threads are
 *       Kafka clients, {@code bucketer-sink} is the sink.
 *   <li>Anything else is {@link Stage#OTHER}, which the breakdown shows so that it stays small.
 * </ol>
 */
final class StageClassifier {

  /** The stages, in the order the breakdown prints them. */
  enum Stage {
    DECODE("decode"),
    REPARTITION("repartition"),
    AGGREGATE("aggregate (window code, cache, RocksDB)"),
    CHANGELOG("changelog"),
    SINK("sink (bucketer's sink, MongoDB driver, BSON)"),
    KAFKA_CLIENTS("Kafka clients (not split by topic)"),
    STREAMS_RUNTIME("Kafka Streams' task loop (queues, metrics, commits)"),
    BROKER("broker (embedded; another machine in production)"),
    OTHER("other");

    private final String label;

    Stage(final String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  private static final String HARNESS = "io.bucketer.bench";

  /** Kafka Streams' thread that restores stores from their changelogs. */
  private static final String STATE_UPDATER = "-StateUpdater-";

  private static final Pattern BROKER_THREAD =
      Pattern.compile(
          "data-plane-kafka-.*|kafka-\\d+-raft-.*|kafka-\\d+-metadata-.*|quorum-controller-.*"
              + "|broker-\\d+-.*|controller-\\d+-.*|group-coordinator-.*|share-coordinator-.*"
              + "|TxnMarkerSenderThread.*|AddPartitionsToTxnSenderThread.*|kafka-scheduler-.*"
              + "|kafka-log-cleaner.*|log-closing-.*|ExpirationReaper-.*|executor-.*"
              + "|PersisterStateManager|LogDirFailureHandler|ReplicaFetcherThread.*");

  private static final List<String> BROKER_FRAMES =
      List.of(
          "kafka",
          "org.apache.kafka.server",
          "org.apache.kafka.storage",
          "org.apache.kafka.raft",
          "org.apache.kafka.controller",
          "org.apache.kafka.metadata",
          "org.apache.kafka.image",
          "org.apache.kafka.coordinator",
          "org.apache.kafka.network",
          "org.apache.kafka.queue",
          "org.apache.kafka.snapshot",
          "org.apache.kafka.timeline");

  private static final Stage RUNTIME = Stage.STREAMS_RUNTIME;

  /** A rule ending in {@code *} matches a prefix; any other, a package, class or method. */
  private static final Map<String, Stage> FRAME_RULES =
      Map.ofEntries(
          Map.entry("io.bucketer.ingest", Stage.DECODE),
          Map.entry("io.bucketer.topology.ReadingDecodeProcessor", Stage.DECODE),
          Map.entry("io.bucketer.topology.ReadingChecks", Stage.DECODE),
          Map.entry("io.bucketer.topology.ReadingBatcher", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.PartitionBatches", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.PartitionBatch", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.PartitionBatchWriter", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.SeriesRepeats", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.PartitionBatchSerde", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.SeriesPartitioner", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.CommitTimeForwarder", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.ReadingBatchSerde", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.ReadingBatch", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.ReadingSerde", Stage.REPARTITION),
          Map.entry("io.bucketer.topology.SeriesKeySerde", Stage.REPARTITION),
          Map.entry("io.bucketer.topology", Stage.AGGREGATE),
          // the peers' code, seen only in their own JVMs (bench live)
          Map.entry("io.bucketer.bench.ReadingsBySeries", Stage.REPARTITION),
          Map.entry("io.bucketer.bench.WindowedAggregateRun", Stage.AGGREGATE),
          Map.entry("io.bucketer.bench.WindowStats", Stage.AGGREGATE),
          Map.entry("io.bucketer.bench.WindowStatsSerde", Stage.AGGREGATE),
          Map.entry(
              "org.apache.kafka.streams.kstream.internals.KStreamWindowAggregate", Stage.AGGREGATE),
          Map.entry("io.bucketer.windows", Stage.AGGREGATE),
          Map.entry("io.bucketer.buckets", Stage.AGGREGATE),
          Map.entry("org.apache.kafka.streams.state", Stage.AGGREGATE),
          Map.entry("org.rocksdb", Stage.AGGREGATE),
          Map.entry("org.apache.kafka.streams.state.internals.ChangeLogging*", Stage.CHANGELOG),
          Map.entry(
              "org.apache.kafka.streams.processor.internals.ProcessorContextImpl.logChange",
              Stage.CHANGELOG),
          Map.entry(
              "org.apache.kafka.streams.processor.internals.StoreChangelogReader", Stage.CHANGELOG),
          Map.entry(
              "org.apache.kafka.streams.processor.internals.ProcessorStateManager.checkpoint",
              Stage.CHANGELOG),
          Map.entry("io.bucketer.sink", Stage.SINK),
          Map.entry("io.bucketer.topics", Stage.SINK),
          Map.entry("com.mongodb", Stage.SINK),
          Map.entry("org.bson", Stage.SINK),
          Map.entry("org.apache.kafka.clients.consumer", Stage.KAFKA_CLIENTS),
          Map.entry("org.apache.kafka.clients.NetworkClient", Stage.KAFKA_CLIENTS),
          Map.entry("org.apache.kafka.clients.producer.internals.Sender", Stage.KAFKA_CLIENTS),
          Map.entry("org.apache.kafka.common.compress", Stage.KAFKA_CLIENTS),
          Map.entry(
              "org.apache.kafka.streams.processor.internals.StreamThread.pollPhase",
              Stage.KAFKA_CLIENTS),
          Map.entry(
              "org.apache.kafka.clients.producer.internals.TransactionManager",
              Stage.KAFKA_CLIENTS),
          Map.entry("org.apache.kafka.streams.processor.internals.StreamThread", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.TaskManager", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.TaskExecutor", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.TaskExecutionMetadata", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.StreamTask", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.PartitionGroup", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.RecordQueue", RUNTIME),
          Map.entry("org.apache.kafka.streams.processor.internals.DefaultStateUpdater", RUNTIME),
          Map.entry("com.github.luben.zstd", Stage.KAFKA_CLIENTS),
          Map.entry("net.jpountz", Stage.KAFKA_CLIENTS),
          Map.entry("org.xerial.snappy", Stage.KAFKA_CLIENTS));

  private static final Pattern CLIENT_THREAD =
      Pattern.compile(
          "kafka-producer-network-thread.*|kafka-admin-client-thread.*"
              + "|kafka-coordinator-heartbeat-thread.*");

  private StageClassifier() {}

  /** A sample of this JVM, where the harness runs beside the processor. */
  static Stage classify(final String thread, final List<String> frames) {
    return classify(thread, frames, true);
  }

  /**
   * A sample of a JVM that runs the harness ({@code harnessInThisJvm}), or of one that runs only a
   * processor or a peer ({@link ProcessorStages}), where the peers' own code, in this package, is
   * work to classify rather than the harness's.
   */
  static Stage classify(
      final String thread, final List<String> frames, final boolean harnessInThisJvm) {
    if (harnessInThisJvm && frames.stream().anyMatch(frame -> matches(frame, HARNESS))) {
      return Stage.OTHER;
    }
    if (thread.contains(STATE_UPDATER)) {
      return Stage.CHANGELOG;
    }
    if (BROKER_THREAD.matcher(thread).matches()
        || frames.stream().anyMatch(f -> BROKER_FRAMES.stream().anyMatch(b -> matches(f, b)))) {
      return Stage.BROKER;
    }
    for (final String frame : frames) {
      String best = null;
      for (final String rule : FRAME_RULES.keySet()) {
        if (matches(frame, rule) && (best == null || rule.length() > best.length())) {
          best = rule;
        }
      }
      if (best != null) {
        return FRAME_RULES.get(best);
      }
    }
    if (CLIENT_THREAD.matcher(thread).matches()) {
      return Stage.KAFKA_CLIENTS;
    }
    if (thread.equals("bucketer-sink")) {
      return Stage.SINK;
    }
    return Stage.OTHER;
  }

  /**
   * Whether {@code frame} is in {@code rule}: a prefix when the rule ends in {@code *}; otherwise
   * the rule itself or the rule followed by {@code .} or {@code $} (a member, or a nested or lambda
   * class), so that {@code ReadingBatch} does not match {@code ReadingBatcher}.
   */
  static boolean matches(final String frame, final String rule) {
    if (rule.endsWith("*")) {
      return frame.startsWith(rule.substring(0, rule.length() - 1));
    }
    if (!frame.startsWith(rule)) {
      return false;
    }
    if (frame.length() == rule.length()) {
      return true;
    }
    final char next = frame.charAt(rule.length());
    return next == '.' || next == '$';
  }
}
