package io.bucketer.app;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.config.BucketerConfig;
import io.bucketer.http.CachedCheck;
import io.bucketer.http.PeerAccess;
import io.bucketer.http.SeriesApi;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.RetryBudget;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaRegistryException;
import io.bucketer.ingest.SchemaRegistryUnavailableException;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.ingest.senml.SenmlOptions;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.KafkaUnusableException;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.NotAuthorisedException;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import io.bucketer.recovery.FencingLoop;
import io.bucketer.recovery.FencingLoopBreaker;
import io.bucketer.recovery.RestoreProgress;
import io.bucketer.recovery.StallRecovery;
import io.bucketer.recovery.StallWatch;
import io.bucketer.sink.BucketSink;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoUnusableException;
import io.bucketer.sink.RepeatedWarning;
import io.bucketer.sink.SinkConfig;
import io.bucketer.state.LocalStateGuard;
import io.bucketer.tenants.TenantSeriesCounts;
import io.bucketer.topology.BoundedRocksDbMemory;
import io.bucketer.topology.BucketTopology;
import io.bucketer.topology.InputPartitioning;
import io.bucketer.topology.ReadingChecks;
import io.bucketer.topology.SeriesOwnerLookup;
import io.bucketer.topology.TopologyNames;
import io.bucketer.windows.PublishedWindows;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires and runs the processor: the Kafka Streams topology that closes buckets, and the sink that
 * writes them to MongoDB. It holds no logic of its own.
 */
public final class BucketerApp implements AutoCloseable {

  /** The cause tag of stream-thread restarts due to a registry outage. */
  public static final String SCHEMA_REGISTRY_UNAVAILABLE = "schema-registry-unavailable";

  /** The cause tag of restarts of Kafka Streams that break a fencing loop. */
  public static final String FENCING_LOOP = "fencing-loop";

  /**
   * The cause tag of stream-thread restarts after the broker aborted the thread's transaction: the
   * process stood still past the transaction timeout, and its commit then found the transaction
   * gone.
   */
  public static final String TRANSACTION_ABORTED = "transaction-aborted";

  private static final Logger LOG = LoggerFactory.getLogger(BucketerApp.class);
  private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
      Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);
  private static final Duration FATAL_CLOSE_TIMEOUT = Duration.ofSeconds(5);

  /** How long the question "what may bucketer do on these topics" may take, once refused. */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

  /** How long each of the start's questions to the cluster may take before it counts as away. */
  private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);

  /** The longest wait between two looks for a missing input topic. */
  private static final Duration INPUT_WAIT_BACKOFF_MAX = Duration.ofSeconds(30);

  private static final Duration SINK_INITIAL_BACKOFF = Duration.ofMillis(200);

  /** How often the stream threads' connection to the cluster is looked at. */
  private static final Duration CLUSTER_WATCH_EVERY = Duration.ofSeconds(5);

  /**
   * The stream threads' transaction timeout, where Kafka Streams' exactly-once default is 10 s: a
   * stall of the process (a collector pause, a starved VM, a paused container) shorter than it
   * costs only its length, where one longer gets the threads fenced, their tasks closed dirty and
   * their state restored from the changelogs. 30 s outlasts the pauses of an overloaded machine
   * three times as long as 10 s does. Longer would hold back the readers of what an instance wrote
   * when it dies for good mid-transaction (the next stage and the sink read committed records only)
   * for as long as its transaction stays open: 30 s, plus the broker's abort check every 10 s,
   * still ends before Kafka's 45 s session timeout hands the instance's tasks to another. A
   * restarted instance aborts its own open transaction at once (same state directory, same
   * transactional ids). docs/configuration.md has the table.
   */
  static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How often the stream threads' consumers refresh the metadata of the topics they read, where
   * Kafka's default is 5 minutes. The group's leader sees partitions added to the input only at a
   * refresh, and only then starts the rebalance that assigns them, while the gateways write to them
   * at once: a sensor that moved waited up to 5 minutes, and its windows were closed by the idle
   * timeout and written again when its readings came. Every 10 s, a new partition is read within
   * about 10 s and a rebalance, inside {@code idle.timeout} (30 s) plus the grace. The cost is one
   * metadata request per stream thread every 10 s, for the input and the repartition topic, served
   * from the broker's memory. Only the main consumers: the producers, the restore consumers and the
   * sink keep Kafka's default, since no new partition of theirs appears unannounced.
   */
  static final Duration INPUT_METADATA_MAX_AGE = Duration.ofSeconds(10);

  /**
   * The most one fetch of the stream threads' consumers brings back, where Kafka's default is 50
   * MiB (and 1 MiB a partition). A fetch's response is one array that lives until the stream thread
   * has processed the last of its records, whichever partition they are from: at 100,000 live
   * sensors the responses were about 5 MB each, lived a second or two, outlived two young
   * collections and were promoted, some 10 MB a second into the old generation, which then needed a
   * full collection every few seconds (docs/benchmarks.md, "A fetch at most 1 MiB"). At 1 MiB a
   * response is drained within a young collection or two and dies young. The cost: a fetch request
   * per MiB, about eight a second at 100,000 readings a second, each answered from the broker's
   * page cache; a record batch larger than this still comes whole (Kafka returns the first batch of
   * a fetch whatever its size).
   */
  static final int INPUT_FETCH_MAX_BYTES = 1024 * 1024;

  /** Readiness probes usually give up after a second or so: a ping must answer well within. */
  private static final Duration PING_TIMEOUT = Duration.ofMillis(800);

  /** Probes may come often; MongoDB is asked at most once in this time. */
  private static final Duration PING_CACHE = Duration.ofSeconds(1);

  private final StreamsClient client;
  private final Supplier<KafkaStreamsMetrics> streamsMetrics;
  private final MongoBucketWriter writer;
  private final BucketSink sink;
  private final BucketerMetrics metrics;
  private final Thread sinkThread;
  private final Supplier<Optional<String>> mongoPingFailure;
  private final String collectionPrefix;
  private final List<Granularity> granularities;
  private final Set<Granularity> keepMeasurements;
  private final Retention retention;
  private final WindowComputations computations;
  private final IntegralUnits integralUnits;
  private final HostInfo advertised;
  private final InputPartitioning partitioning;
  private final PublishedWindows.Directory publishedWindows;
  private final CloseOptions.GroupMembershipOperation onClose;
  private final FatalFailure fatal;
  private final InputTopicWait inputWait;
  private final Duration shutdownTimeout;
  private final ScheduledExecutorService clusterWatch =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> daemon("bucketer-cluster-watch", runnable));
  private final String bootstrapServers;
  private final RestoreProgress restores;
  private final StallRecovery stallRecovery;
  private final FencingLoop fencingLoop;
  private final FencingLoopBreaker fencingLoopBreaker;
  private final ExecutorService restarts =
      Executors.newSingleThreadExecutor(runnable -> daemon("bucketer-streams-restart", runnable));
  private final StallWatch stallWatch;

  private BucketerApp(
      final StreamsClient client,
      final Supplier<KafkaStreamsMetrics> streamsMetrics,
      final MongoBucketWriter writer,
      final BucketSink sink,
      final BucketerMetrics metrics,
      final BucketerConfig config,
      final HostInfo advertised,
      final InputPartitioning partitioning,
      final PublishedWindows.Directory publishedWindows,
      final FatalFailure fatal,
      final KafkaFailures kafkaFailures,
      final TopicSetup topics,
      final RestoreProgress restores,
      final StallRecovery stallRecovery) {
    this.fatal = fatal;
    this.shutdownTimeout = config.kafka().shutdownTimeout();
    this.bootstrapServers = String.valueOf(config.kafkaProperties().get("bootstrap.servers"));
    this.inputWait =
        new InputTopicWait(
            topics::inputTopicExists,
            config.inputTopic(),
            bootstrapServers,
            client::start,
            fatal,
            INPUT_WAIT_BACKOFF_MAX,
            Clock.systemUTC());
    this.advertised = advertised;
    this.partitioning = partitioning;
    this.publishedWindows = publishedWindows;
    this.collectionPrefix = config.collectionPrefix();
    this.granularities = config.granularities();
    this.keepMeasurements = config.bucketLayout().keepMeasurements();
    this.retention = config.retention();
    this.computations = config.windows().computations();
    this.integralUnits = config.windows().integralUnits();
    this.onClose = groupMembershipOnClose(config);
    this.client = client;
    this.streamsMetrics = streamsMetrics;
    this.writer = writer;
    this.sink = sink;
    this.metrics = metrics;
    this.sinkThread = new Thread(sink, "bucketer-sink");
    sinkThread.setUncaughtExceptionHandler(
        (thread, error) -> {
          final Optional<String> kafkaUnusable = fatalLine(kafkaFailures, error);
          if (kafkaUnusable.isPresent()) {
            fatal.record(kafkaUnusable.get());
          } else if (error instanceof MongoUnusableException unusable) {
            fatal.record(unusable.getMessage());
          } else {
            thread.getThreadGroup().uncaughtException(thread, error);
          }
        });
    this.mongoPingFailure = new CachedCheck<>(() -> writer.pingFailure(PING_TIMEOUT), PING_CACHE);
    this.restores = restores;
    this.stallRecovery = stallRecovery;
    this.fencingLoop =
        new FencingLoop(
            stallRecovery.timeouts().transaction(),
            Clock.systemUTC(),
            LoggerFactory.getLogger(FencingLoop.class),
            restores::inProgress);
    this.fencingLoopBreaker =
        new FencingLoopBreaker(
            stallRecovery.timeouts().transaction(),
            fencingLoop,
            stallRecovery,
            client,
            restarts,
            LoggerFactory.getLogger(FencingLoopBreaker.class),
            () -> metrics.streamThreadRestarted(FENCING_LOOP));
    this.stallWatch =
        StallWatch.start(stallRecovery, fencingLoop, fencingLoopBreaker, client::view);
  }

  /**
   * Creates the topics and indexes it needs, then starts the topology and the sink; no query API
   * (an embedded run).
   */
  public static BucketerApp start(final BucketerConfig config, final MeterRegistry meters) {
    return start(config, meters, null);
  }

  /**
   * As {@link #start(BucketerConfig, MeterRegistry)}, advertising {@code advertised} as this
   * instance's query endpoint to the others, so that {@link #seriesApi} can forward to them.
   */
  public static BucketerApp start(
      final BucketerConfig config, final MeterRegistry meters, final HostInfo advertised) {
    return start(config, meters, advertised, new ClusterWait());
  }

  /**
   * As {@link #start(BucketerConfig, MeterRegistry, HostInfo)}, waiting in {@code clusterWait}
   * while the cluster does not answer: the caller may serve {@code /ready} meanwhile.
   *
   * @throws KafkaUnusableException when Kafka cannot be used as configured (TLS trust, a refused
   *     certificate, failed authentication), with its one line
   * @throws NotAuthorisedException when the authorizer refused an operation the start needs
   */
  public static BucketerApp start(
      final BucketerConfig config,
      final MeterRegistry meters,
      final HostInfo advertised,
      final ClusterWait clusterWait) {
    final NotAuthorised notAuthorised =
        NotAuthorised.of(config.kafkaProperties(), RequiredAcls.Names.of(config), PROBE_TIMEOUT);
    final KafkaFailures kafkaFailures =
        new KafkaFailures(config.kafkaProperties(), SETUP_TIMEOUT, notAuthorised);
    final FatalFailure fatal = new FatalFailure();
    final TopicSetup topics = new TopicSetup(config, notAuthorised, kafkaFailures, SETUP_TIMEOUT);
    final InputPartitioning partitioning;
    try {
      partitioning =
          clusterWait.until(
              String.valueOf(config.kafkaProperties().get("bootstrap.servers")),
              () -> {
                topics.createMissingTopics();
                return topics.partitioning();
              });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the cluster", e);
    }
    final MongoBucketWriter writer =
        MongoBucketWriter.connect(
            config.mongo().connection(),
            config.mongoDatabase(),
            config.collectionPrefix(),
            config.granularities(),
            config.retention(),
            config.sinkBatchSize(),
            config.sinkWritesInFlight(),
            config.sinkWriteTimeout());

    // JSON input asks no registry, nor Protobuf from a descriptor set or unvalidated JSON Schema.
    final SchemaRegistryClient registry =
        config.input().needsSchemaRegistry()
            ? new SchemaRegistryClient(
                config.schemaRegistryUrl(),
                Duration.ofSeconds(10),
                registryRetryBudget(config),
                config.input().schemaRegistryAuth(),
                config.input().schemaRegistryTls())
            : null;
    final BucketerMetrics metrics = new BucketerMetrics(meters);
    // Each restart pauses the instance for a session timeout: exported at zero, so that the first
    // one shows as an increase.
    metrics.countStreamThreadRestartsFromZero(SCHEMA_REGISTRY_UNAVAILABLE);
    metrics.countStreamThreadRestartsFromZero(TRANSACTION_ABORTED);
    final SenmlOptions senml =
        config.input().senml().countingSkipsWith(kind -> metrics.senmlValueSkipped(kind.tag()));
    final StreamsConfig streamsConfig = new StreamsConfig(streamsProperties(config, advertised));
    final PublishedWindows.Directory publishedWindows = new PublishedWindows.Directory();
    final TenantSeriesCounts seriesCounts = new TenantSeriesCounts(config.windows().seriesLimits());
    metrics.tenantSeries(seriesCounts);
    final RestoreProgress restores = new RestoreProgress();
    metrics.countProcessStallsFromZero(
        Arrays.stream(StallRecovery.Outlived.values()).map(StallRecovery.Outlived::tag).toList());
    final StallRecovery stallRecovery =
        new StallRecovery(
            stallTimeouts(streamsConfig),
            restores,
            Clock.systemUTC(),
            LoggerFactory.getLogger(StallRecovery.class),
            outlived -> metrics.processStalled(outlived.tag()));
    final LocalStateGuard localState =
        new LocalStateGuard(
            Path.of(streamsConfig.getString(StreamsConfig.STATE_DIR_CONFIG)),
            config.applicationId(),
            config.inputTopic(),
            config.kafkaProperties());
    // The only state listener: it records the cluster and topics as the state's owner, and with a
    // repartition topic checks that it may be purged.
    final KafkaStreams.StateListener stateListener =
        partitioning instanceof InputPartitioning.BySeries
            ? new PurgePermission(
                localState.recordOwnerWhenRunning(kafkaFailures::describe),
                TopologyNames.readingsBySeriesTopic(config.applicationId()),
                notAuthorised,
                fatal)
            : localState.recordOwnerWhenRunning(kafkaFailures::describe);
    final Function<Duration, KafkaStreams> buildStreams =
        transactionTimeout -> {
          final KafkaStreams streams =
              new KafkaStreams(
                  BucketTopology.build(
                      topologySettings(config, partitioning),
                      () ->
                          InputDecoders.of(
                              config.inputFormat(),
                              config.readingMapping(),
                              registry,
                              registry,
                              config.input().formatOptions().withSenml(senml)),
                      metrics,
                      publishedWindows,
                      seriesCounts),
                  new StreamsConfig(
                      withTransactionTimeout(
                          streamsProperties(config, advertised), transactionTimeout)));
          streams.setUncaughtExceptionHandler(
              error -> onStreamThreadFailure(error, metrics, kafkaFailures, fatal));
          streams.setGlobalStateRestoreListener(restores);
          streams.setStateListener(stateListener);
          return streams;
        };
    metrics.countStreamThreadRestartsFromZero(FENCING_LOOP);
    // The Kafka clients' own metrics (consumer lag, commit rates, ...) next to bucketer's, of the
    // client that runs: a restart binds its successor's.
    final AtomicReference<KafkaStreamsMetrics> boundMetrics = new AtomicReference<>();
    final StreamsClient client =
        new StreamsClient(
            buildStreams,
            stallRecovery.timeouts().transaction(),
            (old, next) -> {
              // The old meters go first: the new ones have the same names.
              boundMetrics.get().close();
              final KafkaStreamsMetrics nextMetrics = new KafkaStreamsMetrics(next);
              nextMetrics.bindTo(meters);
              boundMetrics.set(nextMetrics);
            },
            groupMembershipOnClose(config),
            config.kafka().shutdownTimeout(),
            fatal);
    // State left by another cluster or other topics would be counted again: wiped before start.
    localState.wipeIfForeign(client.current()).ifPresent(wipe -> metrics.stateWiped(wipe.cause()));
    final KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(client.current());
    streamsMetrics.bindTo(meters);
    boundMetrics.set(streamsMetrics);

    final BucketSink sink = new BucketSink(sinkConfig(config), writer, metrics);
    final BucketerApp app =
        new BucketerApp(
            client,
            boundMetrics::get,
            writer,
            sink,
            metrics,
            config,
            advertised,
            partitioning,
            publishedWindows,
            fatal,
            kafkaFailures,
            topics,
            restores,
            stallRecovery);
    app.sinkThread.start();
    app.watchTheClusterConnection();
    try {
      app.inputWait.begin(config.input().failWhenTopicMissing());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      app.close();
      throw new IllegalStateException("interrupted while looking for the input topic", e);
    } catch (RuntimeException e) {
      // Refused even a look at the input topic: the sink already runs, and must not stay behind.
      app.close();
      throw e;
    }
    LOG.info(
        "bucketer started: {} -> {} granularities {} -> MongoDB database {}",
        config.inputTopic(),
        config.bucketsTopic(),
        config.granularities(),
        config.mongoDatabase());
    return app;
  }

  /**
   * The sink's settings: its own consumer group, {@code <application.id>-sink}, in which an
   * instance with an {@code instance.id} is the static member {@code <instance.id>-sink}.
   */
  static SinkConfig sinkConfig(final BucketerConfig config) {
    final Map<String, Object> kafka = new HashMap<>(config.kafkaProperties());
    config
        .instanceId()
        .ifPresent(id -> kafka.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id + "-sink"));
    return new SinkConfig(
        config.bucketsTopic(),
        config.deadLetterTopic(),
        config.kafka().sinkGroupId(),
        kafka,
        Duration.ofMillis(500),
        config.sinkWriteTimeout(),
        SINK_INITIAL_BACKOFF,
        // a cap below the first wait means "no doubling", not an invalid setting
        max(SINK_INITIAL_BACKOFF, config.sinkRetryBackoffMax()));
  }

  private static Duration max(final Duration a, final Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  public KafkaStreams.State streamsState() {
    return client.current().state();
  }

  /**
   * What the stall watch sees of Kafka Streams now: its state, and its stream threads' commits and
   * records processed, from Kafka Streams' client metrics.
   */
  public StallRecovery.StreamsView streamsView() {
    return client.view();
  }

  /**
   * True while both halves run: the topology is running or rebalancing and the sink is alive. A
   * sink that waits for MongoDB is alive (it retries, paused, until MongoDB answers); it dies only
   * on a record it cannot decode or a dead letter Kafka does not take.
   */
  public boolean isHealthy() {
    return fatal.reason().isEmpty()
        && (inputWait.waitingReason().isPresent()
            || (client.restarting() || client.current().state().isRunningOrRebalancing()))
        && sinkThread.isAlive();
  }

  /**
   * Completes with the one-line reason when the processor failed in a way that retrying cannot fix
   * (the cluster refused an operation it needs): the caller should end the process.
   */
  public CompletionStage<String> whenFailedFatally() {
    return fatal.whenFailed();
  }

  /**
   * Why the processor cannot do its work right now, or empty when it can: Kafka Streams is RUNNING
   * (not starting or rebalancing), its consumers are connected to the cluster, the sink runs, and
   * MongoDB answers a ping (asked at most once a second, waiting at most {@link #PING_TIMEOUT};
   * when it does not, the reason names the server and the cause, such as unreachable).
   */
  public Optional<String> notReadyReason() {
    if (fatal.reason().isPresent()) {
      return fatal.reason();
    }
    final Optional<String> waiting = inputWait.waitingReason();
    if (waiting.isPresent()) {
      return waiting;
    }
    final Optional<String> recovering =
        fencingLoopBreaker.reason().or(stallRecovery::reason).or(fencingLoop::reason);
    if (recovering.isPresent()) {
      return recovering;
    }
    final KafkaStreams.State state = client.current().state();
    if (state != KafkaStreams.State.RUNNING) {
      return Optional.of(
          "kafka streams is "
              + state
              + restores.describe().map(restoring -> ", " + restoring).orElse(""));
    }
    final Optional<String> lost = lostCluster();
    if (lost.isPresent()) {
      return lost;
    }
    if (!sinkThread.isAlive()) {
      return Optional.of("the MongoDB sink stopped");
    }
    return mongoPingFailure.get();
  }

  /**
   * Why the stream threads cannot work although Kafka Streams is RUNNING: they lost the cluster.
   */
  private Optional<String> lostCluster() {
    final ConsumerConnections.Count lost =
        ConsumerConnections.unconnected(client.current().metrics());
    if (lost.unconnected() == 0) {
      return Optional.empty();
    }
    return Optional.of(
        "kafka at "
            + bootstrapServers
            + ": unreachable: "
            + lost.unconnected()
            + " of "
            + lost.consumers()
            + " stream threads' consumers have no connection to the cluster");
  }

  /**
   * Kafka Streams stays RUNNING while its consumers have lost the cluster, and Kafka's own lines
   * name a node, not the cause: bucketer says it in its own line, at most once a minute while it
   * lasts and once when it ends, whether or not anyone asks /ready.
   */
  private void watchTheClusterConnection() {
    final RepeatedWarning warning = new RepeatedWarning(LOG, Clock.systemUTC());
    clusterWatch.scheduleWithFixedDelay(
        () -> {
          if (client.current().state() == KafkaStreams.State.RUNNING) {
            lostCluster()
                .ifPresentOrElse(
                    warning::failed,
                    () ->
                        warning.cleared(
                            "kafka at "
                                + bootstrapServers
                                + ": the stream threads' consumers are connected again"));
          }
        },
        CLUSTER_WATCH_EVERY.toMillis(),
        CLUSTER_WATCH_EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * The query API: statistics and windows of a series from MongoDB and this instance's state, a
   * request for a series another instance holds forwarded to it.
   *
   * @throws IllegalStateException when started without an advertised endpoint
   */
  public SeriesApi seriesApi(final QueryLimits limits, final PeerAccess peers) {
    if (advertised == null) {
      throw new IllegalStateException("started without an advertised endpoint: no query API");
    }
    final SeriesQueries queries =
        new SeriesQueries(
            new StoredBuckets(
                writer.database(),
                collectionPrefix,
                granularities,
                keepMeasurements,
                limits.timeout(),
                metrics::malformedSketchRead),
            retention,
            Clock.systemUTC(),
            computations,
            integralUnits);
    final SeriesOwnerLookup owners =
        new SeriesOwnerLookup(
            client::current,
            advertised,
            granularities.stream().min(Granularity::compareTo).orElseThrow(),
            partitioning,
            publishedWindows);
    return new SeriesApi(
        queries, owners::ownerOf, limits, advertised.host() + ":" + advertised.port(), peers);
  }

  public long bucketsWritten() {
    return sink.bucketsWritten();
  }

  /** The Kafka clients' own metrics of the topology: its consumers', producers' and tasks'. */
  public Map<MetricName, ? extends Metric> kafkaStreamsMetrics() {
    return client.current().metrics();
  }

  /** What the topology is built with from {@code config}: its windows' settings among them. */
  public static BucketTopology.Settings topologySettings(
      final BucketerConfig config, final InputPartitioning partitioning) {
    final BucketTopology.Settings settings = readingTopologySettings(config, partitioning);
    return config.inputFormat() == InputFormat.SPARKPLUG_B
        ? settings.withSparkplug(config.input().sparkplug())
        : settings;
  }

  private static BucketTopology.Settings readingTopologySettings(
      final BucketerConfig config, final InputPartitioning partitioning) {
    return new BucketTopology.Settings(
            config.inputTopic(),
            config.bucketsTopic(),
            config.deadLetterTopic(),
            config.granularities(),
            config.grace(),
            config.idleTimeout(),
            partitioning,
            config.latenessHorizon(),
            config.bucketLayout(),
            new ReadingChecks(
                config.timestampFloor(), config.maxFutureSkew(), config.maxReadingBytes()),
            config.windowCacheMaxBytes(),
            config.duplicateTimestamps())
        .withComputations(config.windows().computations())
        .withSeriesLimits(config.windows().seriesLimits())
        .withHandover(config.handover())
        .withReadingsHold(config.windows().readingsHold());
  }

  /** The default backoff, within the configured total: a registry restart takes seconds. */
  static RetryBudget registryRetryBudget(final BucketerConfig config) {
    final RetryBudget defaults = RetryBudget.defaults();
    return new RetryBudget(
        defaults.initialBackoff(), defaults.maxBackoff(), config.schemaRegistryRetryTimeout());
  }

  /**
   * The transaction and session timeouts that the stream threads' clients get from {@code config}:
   * bucketer's, Kafka Streams' or Kafka's defaults, or what {@code kafka.*} settings say.
   */
  static StallRecovery.Timeouts stallTimeouts(final StreamsConfig config) {
    final Object transaction =
        config.getProducerConfigs("timeouts").get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
    final Object session =
        config
            .getMainConsumerConfigs("timeouts", "timeouts", 0)
            .getOrDefault(
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                ConsumerConfig.configDef()
                    .defaultValues()
                    .get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
    return new StallRecovery.Timeouts(milliseconds(transaction), milliseconds(session));
  }

  private static Duration milliseconds(final Object value) {
    return Duration.ofMillis(Long.parseLong(String.valueOf(value).trim()));
  }

  /**
   * {@code properties} with transactions that time out after {@code timeout}, whatever the {@code
   * kafka.*} settings said: the prefixed name wins over the plain one.
   */
  static Properties withTransactionTimeout(final Properties properties, final Duration timeout) {
    final int milliseconds = Math.toIntExact(timeout.toMillis());
    properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, milliseconds);
    properties.put(
        StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), milliseconds);
    return properties;
  }

  /**
   * Streams settings: bucketer's defaults, then every {@code kafka.*} setting on top. Exactly-once
   * is the default so that a crash never emits a bucket twice or loses one between the state store,
   * the buckets topic and the input offsets. With an {@code instance.id} the stream threads are
   * static members of the group. The benchmark gives its other Kafka Streams contenders these same
   * settings.
   */
  public static Properties streamsProperties(
      final BucketerConfig config, final HostInfo advertised) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    // No store of the topology uses Kafka's record cache (statestore.cache.max.bytes): the
    // aggregator keeps its open windows as objects instead, within window.cache.max.bytes.
    // Idling orders records across the input partitions of one task (joins, merges). Every task
    // here reads one partition, so idling never applies; yet with it enabled Kafka Streams formats
    // its idling log messages with String.format for every task with an empty queue on every
    // pass, 3.7 % of the stream thread's samples in the bench's profile.
    properties.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.topicReplicationFactor());
    properties.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
    properties.put(BoundedRocksDbMemory.MEMORY_BYTES_CONFIG, config.rocksDbMemoryBytes());
    // What bucketer writes repeats itself: the series' keys in the window log's entries and the
    // repartition's batches, the field names of the buckets. LZ4 takes a batch to a fraction of its
    // size for little CPU (compressed once, on send, and read back by Kafka Streams and the sink),
    // and the broker keeps it as sent. kafka.producer.compression.type overrides it.
    properties.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
    // Unprefixed, so that kafka.transaction.timeout.ms overrides it as well as
    // kafka.producer.transaction.timeout.ms does.
    properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) TRANSACTION_TIMEOUT.toMillis());
    // Kafka Streams 4.x warns at every start until this is set (it becomes the default in 5.0).
    // The topology has no global store, so it changes nothing else.
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    properties.putAll(config.kafkaProperties());
    defaultForMainConsumers(
        properties,
        ConsumerConfig.METADATA_MAX_AGE_CONFIG,
        (int) INPUT_METADATA_MAX_AGE.toMillis());
    defaultForMainConsumers(
        properties, ConsumerConfig.FETCH_MAX_BYTES_CONFIG, INPUT_FETCH_MAX_BYTES);
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
    // The main consumer only (restore and global consumers join no group); Kafka Streams appends
    // "-<thread index>" to it, one static member per stream thread.
    config
        .instanceId()
        .ifPresent(
            id ->
                properties.put(
                    StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), id));
    if (advertised != null) {
      properties.put(
          StreamsConfig.APPLICATION_SERVER_CONFIG, advertised.host() + ":" + advertised.port());
    }
    final Properties result = new Properties();
    result.putAll(properties);
    return result;
  }

  /**
   * Gives the stream threads' main consumers {@code value} for the consumer setting {@code
   * setting}, unless a {@code kafka.*} setting names it in any form Kafka Streams reads for them:
   * plain, {@code consumer.} or {@code main.consumer.}.
   */
  private static void defaultForMainConsumers(
      final Map<String, Object> properties, final String setting, final Object value) {
    if (Stream.of(
            setting,
            StreamsConfig.consumerPrefix(setting),
            StreamsConfig.mainConsumerPrefix(setting))
        .noneMatch(properties::containsKey)) {
      properties.put(StreamsConfig.mainConsumerPrefix(setting), value);
    }
  }

  /**
   * A registry that stays unreachable past the client's retry budget is not bad input: the thread
   * is replaced and resumes from the last commit. So is a thread whose commit finds that the broker
   * aborted its transaction ({@link InvalidTxnStateException}): the process stood still past the
   * transaction timeout (StallRecoveryIT's three-minute stall met it once, 2026-12-05), and Kafka
   * Streams, which takes a fenced producer for a lost task, takes this one for a fatal error; the
   * transaction is gone, so nothing of it reached anyone. A refusal by the cluster's authorizer,
   * TLS trust, a refused certificate or login are fatal: one line names the cause, and the client
   * shuts down. Anything else is a bug or a broken cluster, and retrying it in a loop would hide
   * it, so the client shuts down.
   */
  static StreamThreadExceptionResponse onStreamThreadFailure(
      final Throwable error,
      final BucketerMetrics metrics,
      final KafkaFailures kafkaFailures,
      final FatalFailure fatal) {
    final Optional<String> unusable = fatalLine(kafkaFailures, error);
    if (unusable.isPresent()) {
      fatal.record(unusable.get());
      return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
    Throwable cause = error;
    while (cause != null) {
      if (cause instanceof SchemaRegistryException refused
          && !(cause instanceof SchemaRegistryUnavailableException)) {
        // Refused a login, not trusted, or not a registry at that address: no retry fixes it, and
        // dead-lettering would discard good readings.
        fatal.record(firstLine(refused.getMessage()));
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
      }
      if (cause instanceof InvalidTxnStateException) {
        LOG.warn(
            "the broker aborted the stream thread's transaction (it outlived the transaction"
                + " timeout); restarting the thread, which resumes from its last commit: {}",
            cause.getMessage());
        metrics.streamThreadRestarted(TRANSACTION_ABORTED);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
      }
      if (cause instanceof SchemaRegistryUnavailableException) {
        LOG.warn(
            "schema registry unavailable; restarting the stream thread: {}", cause.getMessage());
        metrics.streamThreadRestarted(SCHEMA_REGISTRY_UNAVAILABLE);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
      }
      cause = cause.getCause();
    }
    LOG.error("stream thread failed; shutting down", error);
    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  }

  private static String firstLine(final String message) {
    return message == null
        ? "schema registry: no reason given"
        : message.lines().findFirst().orElse("");
  }

  /** The one line of a Kafka failure that retrying cannot fix; empty for any other. */
  private static Optional<String> fatalLine(
      final KafkaFailures kafkaFailures, final Throwable error) {
    return kafkaFailures
        .classify(error)
        .filter(failure -> !failure.cause().retryable())
        .map(KafkaFailures.Failure::line);
  }

  /**
   * A static member ({@code instance.id} set) comes back under its name, so it stays in its group
   * and takes its partitions back without a rebalance. A dynamic member comes back, if at all, as a
   * new member: staying would only leave its partitions unprocessed until its session expires
   * (Kafka Streams' own default on the classic protocol, 45 s), so it leaves at once.
   */
  private static CloseOptions.GroupMembershipOperation groupMembershipOnClose(
      final BucketerConfig config) {
    return config.instanceId().isPresent()
        ? CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP
        : CloseOptions.GroupMembershipOperation.LEAVE_GROUP;
  }

  /** {@link #close(Duration)} within {@code shutdown.timeout}. */
  @Override
  public void close() {
    close(shutdownTimeout);
  }

  /**
   * Stops within {@code timeout} whatever the state, a dependency down included: Kafka Streams
   * commits and the sink finishes the batch MongoDB is writing, side by side, as they share
   * nothing. What either left uncommitted is logged; the next start processes it again, so nothing
   * is lost.
   */
  public void close(final Duration timeout) {
    final long startedNanos = System.nanoTime();
    final Deadline deadline = new Deadline(timeout);
    clusterWatch.shutdownNow();
    stallWatch.close();
    restarts.shutdownNow();
    inputWait.close();
    final Map<TopicPartition, Long> lastCommitted = lastCommittedInputOffsets();
    final CompletableFuture<Boolean> streamsClosed =
        CompletableFuture.supplyAsync(
            () ->
                client.close(
                    CloseOptions.groupMembershipOperation(onClose)
                        .withTimeout(streamsCloseTimeout(deadline))),
            runnable -> daemon("bucketer-streams-close", runnable).start());
    final boolean sinkClosed = sink.close(deadline.remaining());
    final boolean streamsDone = await(streamsClosed, deadline.remaining());
    if (streamsDone) {
      LOG.info("kafka streams stopped: what it processed is committed");
    } else {
      LOG.warn(
          "kafka streams did not stop within {}: its open transaction is aborted, and the next"
              + " start processes again the input after its last committed offsets {}",
          TimeSpans.format(timeout.toMillis()),
          lastCommitted);
    }
    streamsMetrics.get().close();
    try {
      writer.close();
    } catch (Exception e) {
      LOG.warn("closing the MongoDB client failed", e);
    }
    LOG.info(
        "bucketer stopped in {} ms{}",
        Duration.ofNanos(System.nanoTime() - startedNanos).toMillis(),
        sinkClosed && streamsDone
            ? ""
            : ", leaving uncommitted work (logged above) for the next start");
  }

  /**
   * After a fatal refusal there is nothing to commit, and Kafka Streams' threads may never confirm
   * their end (a state updater that failed on the refusal): do not wait long for it.
   */
  private Duration streamsCloseTimeout(final Deadline deadline) {
    final Duration remaining = deadline.remaining();
    return fatal.reason().isPresent() && FATAL_CLOSE_TIMEOUT.compareTo(remaining) < 0
        ? FATAL_CLOSE_TIMEOUT
        : remaining;
  }

  /** The input offsets of this instance's tasks' last commits, as Kafka Streams last reported. */
  private Map<TopicPartition, Long> lastCommittedInputOffsets() {
    final Map<TopicPartition, Long> offsets = new TreeMap<>(BY_TOPIC_AND_PARTITION);
    try {
      client
          .current()
          .metadataForLocalThreads()
          .forEach(
              thread ->
                  thread.activeTasks().forEach(task -> offsets.putAll(task.committedOffsets())));
    } catch (RuntimeException e) {
      // Not running (never started, or failed): there is nothing of its own to report.
    }
    return offsets;
  }

  private static boolean await(final CompletableFuture<Boolean> closed, final Duration timeout) {
    try {
      return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  private static Thread daemon(final String name, final Runnable runnable) {
    final Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  /** A point in time that several steps of a stop share. */
  private static final class Deadline {
    private final long endNanos;

    Deadline(final Duration timeout) {
      this.endNanos = System.nanoTime() + timeout.toNanos();
    }

    Duration remaining() {
      return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
    }
  }
}
