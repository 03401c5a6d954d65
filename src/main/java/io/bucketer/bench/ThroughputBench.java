package io.bucketer.bench;

import com.mongodb.client.model.Indexes;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.app.BucketerApp;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.MongoOperationCounter;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.embedded.SaslSslListener;
import io.bucketer.embedded.SelfSignedTls;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.kafkaaccess.RequiredAcls;
import io.bucketer.query.StoredDocuments;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The side-by-side benchmark: one embedded broker, one MongoDB stand-in whose operations are
 * counted, one topic of readings; then, one after another on the same readings, (1) a plain
 * consumer that only decodes them, (1b) a Kafka Streams topology that only repartitions them by
 * series, (2) bucketer, and again in variants (2k, 2s, 2p, 2n), (3) MongoDB's Kafka sink connector,
 * (4) Kafka Streams' own windowed aggregation. Each starts when the one before has finished, so
 * none competes with another for the machine.
 */
public final class ThroughputBench {

  /** What to run; see {@code bucketer bench --help}. */
  public record Options(
      int sensors,
      Duration interval,
      Duration span,
      Duration warmup,
      int maxWarmupRounds,
      int measuredRounds,
      int inputPartitions,
      boolean withConnector,
      boolean withSaslSsl,
      Duration phaseTimeout,
      Map<String, String> processorSettings) {}

  /**
   * The default benchmark's buckets, which the live benchmark's backlog ({@link BacklogRun}) counts
   * too.
   */
  static final List<Granularity> GRANULARITIES =
      List.of(Granularity.parse("1m"), Granularity.parse("1h"));

  private static final String CONNECTOR_COLLECTION = "readings_connector";
  static final int MAX_MEASUREMENTS = 1000;
  private static final int SETTLED_JIT_SHARE_PERCENT = 10;

  /** bucketer's default; the other Kafka Streams contenders take the processor's setting. */
  private static final int SERIES_PARTITIONS = 6;

  /** Row 2k's variant: its application id, topics and database carry it. */
  private static final String KEYED = "keyed";

  /** Row 2s's variant. */
  private static final String SASL_SSL = "sasl";

  /** Row 2p's variant: 2s's twin over PLAINTEXT, and 2n's with quantile sketches. */
  private static final String PLAINTEXT_TWIN = "plain";

  /** Row 2n's variant: 2p without quantile sketches. */
  private static final String WITHOUT_QUANTILES = "noquantiles";

  /** Row 2s's principal: a SCRAM user with the README's ACLs and no others. */
  private static final String BENCH_USER = "bench";

  private final Options options;
  private final PrintStream out;

  public ThroughputBench(final Options options, final PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * Warms up, then runs every row once per measured round and prints each round's table and the
   * spread over the rounds; returns the figures for whoever wants to check them.
   */
  public BenchRounds run() throws Exception {
    out.println(Machine.describe());
    out.println(Machine.load("at the start"));
    final Path tlsDir = Files.createTempDirectory("bucketer-bench-tls-");
    final Optional<SaslSslListener> secured =
        options.withSaslSsl() ? Optional.of(saslSslListener(tlsDir)) : Optional.empty();
    try (EmbeddedKafkaBroker broker =
            secured.isPresent()
                ? EmbeddedKafkaBroker.startWithSaslSslBeside(secured.get())
                : EmbeddedKafkaBroker.start();
        // In its own JVM, as a MongoDB server is in its own process: the stand-in keeps every
        // document on its heap, and in this JVM collecting that heap paused the processor being
        // measured (see MongoServerProcess). Its CPU time is counted with every row's.
        MongoServerProcess mongo = MongoServerProcess.start();
        StandInOperations operations = new StandInOperations(mongo.connectionString());
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      final Infrastructure infrastructure =
          new Infrastructure(broker, secured, mongo, registry, operations);
      warmUp(infrastructure);
      final List<BenchResults> rounds = new ArrayList<>();
      for (int number = 1; number <= options.measuredRounds(); number++) {
        final boolean last = number == options.measuredRounds();
        out.printf("measured round %d of %d%n", number, options.measuredRounds());
        final Round round = new Round("measured" + number, options.span());
        final BenchResults results =
            round(infrastructure, round, last ? RoundKind.LAST : RoundKind.MEASURED);
        results.print(out);
        out.println();
        rounds.add(results);
        if (!last) {
          dropDatabases(infrastructure.mongo(), database -> database.startsWith(round.database()));
        }
      }
      final BenchRounds all = new BenchRounds(rounds);
      all.print(out);
      out.println(Machine.load("at the end"));
      return all;
    } finally {
      Utils.delete(tlsDir.toFile());
    }
  }

  /**
   * A SASL_SSL listener with a self-signed certificate and random passwords, for the admin and
   * {@value #BENCH_USER}.
   */
  private static SaslSslListener saslSslListener(final Path dir) {
    final SelfSignedTls tls = SelfSignedTls.create(dir);
    final SecureRandom random = new SecureRandom();
    final Map<String, String> passwords = new HashMap<>();
    for (final String user : List.of("admin", BENCH_USER)) {
      final byte[] bytes = new byte[16];
      random.nextBytes(bytes);
      passwords.put(user, HexFormat.of().formatHex(bytes));
    }
    return new SaslSslListener(tls.keyStore(), tls.trustStore(), "admin", passwords);
  }

  /**
   * The JIT compiles the broker's, Kafka Streams', the stand-in's and bucketer's hot code while it
   * first runs, with one compiler thread on two cores: tens of CPU seconds that a processor pays
   * once, at its start, and that would otherwise be measured as a cost per reading. Warm-up rounds
   * run every contender on readings of their own until a round leaves the compilers at most {@value
   * #SETTLED_JIT_SHARE_PERCENT} % of its CPU time, or {@code maxWarmupRounds} have run.
   */
  private void warmUp(final Infrastructure infrastructure) throws Exception {
    for (int number = 1;
        number <= options.maxWarmupRounds() && !options.warmup().isZero();
        number++) {
      out.printf("warm-up round %d, not measured%n", number);
      final Round round = new Round(number == 1 ? "warmup" : "warmup" + number, options.warmup());
      final PhaseClock clock = infrastructure.clock().start();
      round(infrastructure, round, RoundKind.WARM_UP);
      final PhaseClock.Measured time = clock.stop();
      dropDatabases(
          infrastructure.mongo(),
          database ->
              database.equals(round.database()) || database.startsWith(round.database() + "_"));
      final boolean settled = time.jitShare() * 100 <= SETTLED_JIT_SHARE_PERCENT;
      out.printf(
          "JIT compilation took %.0f%% of the round's CPU time: %s%n%n",
          time.jitShare() * 100,
          settled
              ? "settled"
              : number < options.maxWarmupRounds() ? "another round" : "the last warm-up round");
      if (settled) {
        return;
      }
    }
  }

  /**
   * Drops the stand-in's databases that {@code which} names. The stand-in keeps every document on
   * its heap, where a MongoDB server would keep them on disk: documents a row no longer needs would
   * be collected, and copied or marked again and again, during the rows measured after it, and
   * charged to them.
   */
  /**
   * Has the stand-in collect its garbage now, before a row that writes to it: the documents of the
   * rows before it, dropped, and what serving them left. Otherwise the stand-in's collector, whose
   * work grows with what earlier rows wrote, ran in the middle of whichever row came next: in two
   * default runs the same rows (2 of the first measured round, 2s of the second) had twice the
   * stand-in CPU of the others and ran at 0.45 - 0.75 of their rate, taking that round's ratio with
   * them. Its collector's work is the stand-in's, not a MongoDB server's, and not the row's.
   */
  private static void collectStandInGarbage(final Infrastructure infrastructure)
      throws InterruptedException {
    Jcmd.run(infrastructure.mongo().processHandle().pid(), "GC.run");
  }

  private static void dropDatabases(final MongoServerProcess mongo, final Predicate<String> which) {
    try (MongoClient client = MongoClients.create(mongo.connectionString())) {
      for (final String database :
          Flux.from(client.listDatabaseNames()).collectList().block(Duration.ofMinutes(1))) {
        if (which.test(database)) {
          Mono.from(client.getDatabase(database).drop()).block(Duration.ofMinutes(1));
        }
      }
    }
  }

  private record Infrastructure(
      EmbeddedKafkaBroker broker,
      Optional<SaslSslListener> saslSsl,
      MongoServerProcess mongo,
      InProcessSchemaRegistry registry,
      StandInOperations operations) {

    /** A clock of every row: this JVM's CPU time and the stand-in's, also apart. */
    PhaseClock clock() {
      return PhaseClock.counting(mongo.processHandle());
    }
  }

  /**
   * What a round measures: nothing (a warm-up, without the connector, whose JVM is new each time);
   * every row; or every row and then the reads and the storage of its documents (the last).
   */
  private enum RoundKind {
    WARM_UP,
    MEASURED,
    LAST
  }

  /** The names one round uses: its own topic, application id and database. */
  private record Round(String name, Duration span) {
    String topic() {
      return "bench." + name + ".readings";
    }

    String bucketsTopic() {
      return "bench." + name + ".buckets";
    }

    String deadLetterTopic() {
      return "bench." + name + ".dead-letters";
    }

    String windowsTopic() {
      return "bench." + name + ".windows";
    }

    String database() {
      return "bench_" + name;
    }

    /** The database of one bucketer row: {@code variant} is empty for row 2's. */
    String bucketerDatabase(final String variant) {
      return variant.isEmpty() ? database() : database() + "_" + variant;
    }

    String applicationId() {
      return "bucketer-bench-" + name;
    }
  }

  private BenchResults round(
      final Infrastructure infrastructure, final Round round, final RoundKind kind)
      throws Exception {
    final EmbeddedKafkaBroker broker = infrastructure.broker();
    final StandInOperations operations = infrastructure.operations();
    final BenchFleet fleet =
        new BenchFleet(options.sensors(), options.interval(), round.span(), 42);
    out.printf(
        "%s: %d sensors, one reading every %s each, %s of event time: %,d readings%n",
        round.name(),
        options.sensors(),
        TimeSpans.format(options.interval().toMillis()),
        TimeSpans.format(round.span().toMillis()),
        fleet.readings());
    broker.createTopic(round.topic(), options.inputPartitions(), Map.of());
    final SchemaRegistryClient registryClient =
        new SchemaRegistryClient(infrastructure.registry().url());

    out.println("[0] filling the input topic");
    final BenchFleet.Sent sent =
        fleet.send(
            broker.bootstrapServers(),
            registryClient,
            round.topic(),
            GRANULARITIES,
            BucketLayout.finestKeepsMeasurements(MAX_MEASUREMENTS),
            n -> out.printf("    sent %,d%n", n));
    final long expectedDocuments =
        sent.bucketDocuments().values().stream().mapToLong(Long::longValue).sum();

    out.println("[1] raw consume: a plain consumer decoding every reading");
    final PhaseClock.Measured raw =
        RawConsumeRun.run(
            infrastructure.clock(),
            broker.bootstrapServers(),
            registryClient,
            round.topic(),
            sent.readings(),
            options.phaseTimeout(),
            n -> out.printf("    decoded %,d%n", n));
    final BenchResults.Rate rawRate = new BenchResults.Rate(sent.readings(), raw, null, null);
    out.printf("    %,.0f readings/s%n", rawRate.readingsPerSecond());

    out.println("[1b] Kafka Streams floor: decode, repartition by series, nothing else");
    final Path floorStateDir = Files.createTempDirectory("bucketer-bench-floor-");
    final BenchResults.Rate floorRate;
    try {
      final BucketerConfig settings =
          new BucketerConfig(processorSettings(infrastructure, round, floorStateDir));
      floorRate =
          StreamsFloorRun.run(
              infrastructure.clock(),
              streamsProperties(settings, round.applicationId() + "-floor"),
              registryClient,
              round.topic(),
              settings.seriesPartitions(),
              sent.readings(),
              options.phaseTimeout(),
              n -> out.printf("    repartitioned %,d%n", n));
    } finally {
      Utils.delete(floorStateDir.toFile());
    }
    out.printf("    %,.0f readings/s%n", floorRate.readingsPerSecond());

    collectStandInGarbage(infrastructure);
    out.printf("[2] bucketer: until MongoDB holds all %,d bucket documents%n", expectedDocuments);
    // Sampled in the warm-up rounds too, though nothing reads their samples: the first JFR
    // recording of a JVM instruments JDK classes and compiles JFR's own code, and when a measured
    // round was its first, every bucketer row of that round spent 30 - 37 % of its CPU in the JIT,
    // against 1 - 8 % in the next rounds.
    final BucketerRun processor =
        bucketer(infrastructure, round, sent, expectedDocuments, "", Map.of(), true);
    // Checked, its documents have done their part; 2k writes the same documents, which the reads
    // and the footprint below then use.
    dropDatabases(infrastructure.mongo(), round.bucketerDatabase("")::equals);
    collectStandInGarbage(infrastructure);
    out.printf(
        "[2k] bucketer, input keyed by sensor (%s=%s): until MongoDB holds all %,d bucket"
            + " documents%n",
        KafkaSettings.INPUT_PARTITIONING, KafkaSettings.PARTITIONING_BY_SENSOR, expectedDocuments);
    final BucketerRun keyed =
        bucketer(
            infrastructure,
            round,
            sent,
            expectedDocuments,
            KEYED,
            Map.of(KafkaSettings.INPUT_PARTITIONING, KafkaSettings.PARTITIONING_BY_SENSOR),
            false);

    final BenchResults.Rate overSaslSsl;
    if (infrastructure.saslSsl().isPresent()) {
      collectStandInGarbage(infrastructure);
      out.printf(
          "[2s] bucketer over SASL_SSL (SCRAM-SHA-512 over TLS, the README's ACLs): until MongoDB"
              + " holds all %,d bucket documents%n",
          expectedDocuments);
      overSaslSsl =
          bucketerOverSaslSsl(
              infrastructure, infrastructure.saslSsl().get(), round, sent, expectedDocuments);
      dropDatabases(infrastructure.mongo(), round.bucketerDatabase(SASL_SSL)::equals);
    } else {
      overSaslSsl = null;
    }
    // Rows run later in a round run faster (row 2 is the slowest of 2, 2k and 2s in every run):
    // 2s is compared with a twin over PLAINTEXT run right after it, not with row 2. The twin
    // runs second, so any advantage of order goes to PLAINTEXT: the ratio errs against SASL_SSL.
    collectStandInGarbage(infrastructure);
    out.printf(
        "[2p] bucketer over PLAINTEXT again, the twin of %s2n: until MongoDB holds all %,d bucket"
            + " documents%n",
        overSaslSsl == null ? "" : "2s and ", expectedDocuments);
    final BenchResults.Rate plaintextTwin =
        bucketer(infrastructure, round, sent, expectedDocuments, PLAINTEXT_TWIN, Map.of(), false)
            .rate();
    // Measured in warm-up rounds too, though nothing reads them there: reading every document
    // back compiles code in this JVM and in the stand-in's, which in a measured round's first
    // reading would still be compiling during the next row, and be charged to it.
    final List<StoredFootprint> storedWithQuantiles =
        bucketFootprints(
            infrastructure.mongo().connectionString(),
            round.bucketerDatabase(PLAINTEXT_TWIN),
            "2p, quantile sketches on: every granularity");
    dropDatabases(infrastructure.mongo(), round.bucketerDatabase(PLAINTEXT_TWIN)::equals);
    // 2n is 2p without quantile sketches, for what they cost, on the same terms as 2s/2p: run
    // right after 2p. The order swings the ratio either way by more than the sketches' CPU (in
    // three default runs 2n, run second, took more CPU per reading than 2p); their bytes do not
    // depend on it.
    collectStandInGarbage(infrastructure);
    out.printf(
        "[2n] bucketer with %s=false, right after 2p, for what quantile sketches cost: until"
            + " MongoDB holds all %,d bucket documents%n",
        WindowSettings.QUANTILES_ENABLED, expectedDocuments);
    final BenchResults.Rate withoutQuantiles =
        bucketer(
                infrastructure,
                round,
                sent,
                expectedDocuments,
                WITHOUT_QUANTILES,
                Map.of(WindowSettings.QUANTILES_ENABLED, "false"),
                false)
            .rate();
    final List<StoredFootprint> storedWithoutQuantiles =
        bucketFootprints(
            infrastructure.mongo().connectionString(),
            round.bucketerDatabase(WITHOUT_QUANTILES),
            "2n, quantile sketches off: every granularity");
    dropDatabases(infrastructure.mongo(), round.bucketerDatabase(WITHOUT_QUANTILES)::equals);

    BenchResults.Rate connectorRate = null;
    if (options.withConnector() && kind != RoundKind.WARM_UP) {
      collectStandInGarbage(infrastructure);
      out.println("[3] MongoDB Kafka sink connector (Connect standalone, its own JVM)");
      final long writtenBefore = operations.counts().writeStatements();
      connectorRate =
          ConnectorRun.run(
              SinkConnectorSettings.of(
                  broker.bootstrapServers(),
                  round.topic(),
                  infrastructure.registry().url(),
                  infrastructure.mongo().connectionString(),
                  round.database(),
                  CONNECTOR_COLLECTION),
              operations,
              infrastructure.clock(),
              sent.readings(),
              options.phaseTimeout(),
              n ->
                  out.printf(
                      "    %,d of %,d documents written%n", n - writtenBefore, sent.readings()));
      out.printf(
          "    %,.0f readings/s (after the first %.0f%%)%n",
          connectorRate.readingsPerSecond(), ConnectorRun.WARMUP_SHARE * 100);
    }
    out.println(
        "[4] Kafka Streams windowed aggregate: count, sum, min, max per series and minute,"
            + " emitted on window close");
    final WindowedAggregateRun.Result windowed = windowedAggregate(infrastructure, round, sent);
    final BenchResults.WindowedAggregate windowedAggregate =
        new BenchResults.WindowedAggregate(
            new BenchResults.Rate(sent.readings(), windowed.time(), null, windowed.written()),
            windowed.windows(),
            windowed.readingsInWindows(),
            windowed.droppedAsLate());
    out.printf(
        "    %,.0f readings/s; %,d closed windows hold %,d readings, %,d were dropped as late%n",
        windowedAggregate.rate().readingsPerSecond(),
        windowed.windows(),
        windowed.readingsInWindows(),
        windowed.droppedAsLate());

    final List<RangeReads.Answer> reads =
        kind == RoundKind.LAST ? rangeReads(infrastructure, round, sent) : List.of();
    final List<StoredFootprint> storage =
        kind == RoundKind.LAST ? storage(infrastructure, round) : List.of();
    return new BenchResults(
        sent,
        rawRate,
        floorRate,
        processor.rate(),
        keyed.rate(),
        overSaslSsl,
        plaintextTwin,
        withoutQuantiles,
        connectorRate,
        windowedAggregate,
        processor.result().latencyP50Millis(),
        processor.result().latencyP99Millis(),
        processor.result().buckets(),
        new TreeMap<>(
            Map.of(
                "2 bucketer", processor.result().stateOperations(),
                "2k bucketer, keyed by sensor", keyed.result().stateOperations())),
        reads,
        storage,
        storedWithQuantiles,
        storedWithoutQuantiles,
        processor.result().stages() == null
            ? null
            : new StageBreakdown(
                processor.result().stages(), processor.result().time(), sent.readings()));
  }

  /**
   * What each layout stores for the same readings: bucketer's buckets of every granularity, and,
   * when the connector ran, its documents with the index a query by series and time needs (the
   * index bucketer's collections have), which a team using it would create.
   */
  private List<StoredFootprint> storage(final Infrastructure infrastructure, final Round round) {
    final String mongoUri = infrastructure.mongo().connectionString();
    final List<StoredFootprint> footprints =
        new ArrayList<>(
            bucketFootprints(
                mongoUri, round.bucketerDatabase(KEYED), "bucketer, every granularity"));
    if (options.withConnector()) {
      try (MongoClient client = MongoClients.create(mongoUri)) {
        Mono.from(
                client
                    .getDatabase(round.database())
                    .getCollection(CONNECTOR_COLLECTION)
                    .createIndex(Indexes.ascending("sensor_id", "metric", "timestamp")))
            .block(Duration.ofMinutes(1));
      }
      footprints.add(
          StoredFootprint.measure(
              mongoUri,
              round.database(),
              List.of(CONNECTOR_COLLECTION),
              "one document per reading (connector)"));
    }
    return footprints;
  }

  /**
   * bucketer's documents in {@code database}: every granularity together, named {@code layout},
   * then each granularity apart.
   */
  private static List<StoredFootprint> bucketFootprints(
      final String mongoUri, final String database, final String layout) {
    final List<StoredFootprint> byGranularity = new ArrayList<>();
    for (final Granularity granularity : GRANULARITIES) {
      byGranularity.add(
          StoredFootprint.measure(
              mongoUri,
              database,
              List.of(
                  BucketDocumentNames.collectionName(
                      BucketDocumentNames.DEFAULT_COLLECTION_PREFIX, granularity)),
              "  of which "
                  + granularity
                  + (granularity.equals(GRANULARITIES.get(0))
                      ? ": readings"
                      : ": summaries of " + GRANULARITIES.get(0))));
    }
    final List<StoredFootprint> footprints = new ArrayList<>();
    footprints.add(StoredFootprint.sum(layout, byGranularity));
    footprints.addAll(byGranularity);
    return footprints;
  }

  /**
   * Row 2 again, as its principal on a secured cluster runs it: over the SASL_SSL listener of the
   * same broker, on the same input topic, with exactly the ACLs the README lists, its buckets and
   * dead-letter topics created by an admin beforehand (as the README advises: no CREATE on them).
   */
  private BenchResults.Rate bucketerOverSaslSsl(
      final Infrastructure infrastructure,
      final SaslSslListener listener,
      final Round round,
      final BenchFleet.Sent sent,
      final long expectedDocuments)
      throws Exception {
    final EmbeddedKafkaBroker broker = infrastructure.broker();
    final String suffix = "-" + SASL_SSL;
    final int seriesPartitions =
        new BucketerConfig(processorSettings(infrastructure, round, Path.of("unused")))
            .seriesPartitions();
    broker.createTopic(
        round.bucketsTopic() + suffix,
        seriesPartitions,
        Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    broker.createTopic(round.deadLetterTopic() + suffix, seriesPartitions, Map.of());
    // The PLAINTEXT listener's clients are the super user User:ANONYMOUS: it may grant.
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      final List<AclBinding> acls =
          RequiredAcls.bindings(
              "User:" + BENCH_USER,
              new RequiredAcls.Names(
                  round.applicationId() + suffix,
                  round.topic(),
                  round.bucketsTopic() + suffix,
                  round.deadLetterTopic() + suffix));
      admin.createAcls(acls).all().get(1, TimeUnit.MINUTES);
      awaitAcls(admin, acls);
    }
    final Map<String, String> overSaslSsl = new HashMap<>();
    overSaslSsl.put(KafkaSettings.BOOTSTRAP_SERVERS, broker.saslSslBootstrapServers());
    listener
        .clientProperties(BENCH_USER)
        .forEach(
            (key, value) -> overSaslSsl.put(KafkaSettings.CLIENT_PREFIX + key, value.toString()));
    return bucketer(infrastructure, round, sent, expectedDocuments, SASL_SSL, overSaslSsl, false)
        .rate();
  }

  /**
   * Waits until the broker's authorizer holds {@code acls}: the controller has committed them when
   * {@code createAcls} returns, but the broker applies its metadata after that, and on a loaded
   * machine the processor's start-up check of its rights could come first and refuse to start.
   */
  private static void awaitAcls(final Admin admin, final List<AclBinding> acls) throws Exception {
    final AclBindingFilter ofTheUser =
        new AclBindingFilter(
            ResourcePatternFilter.ANY,
            new AccessControlEntryFilter(
                acls.get(0).entry().principal(), null, AclOperation.ANY, AclPermissionType.ANY));
    final Deadline deadline = new Deadline(Duration.ofMinutes(1));
    while (!admin.describeAcls(ofTheUser).values().get(1, TimeUnit.MINUTES).containsAll(acls)) {
      deadline.check("the broker to apply the bench user's ACLs");
      TimeUnit.MILLISECONDS.sleep(100);
    }
  }

  /** One run of bucketer: its rate and what it reported. */
  private record BucketerRun(BenchResults.Rate rate, ProcessorRun.Result result) {}

  /**
   * bucketer with its production defaults and {@code overrides}, on an application id, topics and
   * database of its own ({@code variant} tells them apart), until MongoDB holds every bucket; then
   * checks that the buckets hold every reading. With {@code sampleStages}, also where its CPU went.
   */
  private BucketerRun bucketer(
      final Infrastructure infrastructure,
      final Round round,
      final BenchFleet.Sent sent,
      final long expectedDocuments,
      final String variant,
      final Map<String, String> overrides,
      final boolean sampleStages)
      throws Exception {
    final StandInOperations operations = infrastructure.operations();
    final Path stateDir = Files.createTempDirectory("bucketer-bench-");
    final Map<String, Object> settings = processorSettings(infrastructure, round, stateDir);
    final String suffix = variant.isEmpty() ? "" : "-" + variant;
    final String database = round.bucketerDatabase(variant);
    settings.put(KafkaSettings.APPLICATION_ID, round.applicationId() + suffix);
    settings.put(MongoSettings.DATABASE, database);
    settings.put(KafkaSettings.BUCKETS_TOPIC, round.bucketsTopic() + suffix);
    settings.put(KafkaSettings.DEAD_LETTER_TOPIC, round.deadLetterTopic() + suffix);
    settings.putAll(overrides);
    final ProcessorRun.Result result;
    final MongoOperationCounter.Counts before = operations.counts();
    try {
      result =
          ProcessorRun.run(
              infrastructure.clock(),
              settings,
              expectedDocuments,
              () -> operations.counts().writeStatements() - before.writeStatements(),
              () -> storedDocuments(infrastructure.mongo(), database),
              options.phaseTimeout(),
              sampleStages,
              n -> out.printf("    %,d of %,d documents written%n", n, expectedDocuments));
    } finally {
      Utils.delete(stateDir.toFile());
    }
    final BenchResults.Rate rate =
        new BenchResults.Rate(
            sent.readings(), result.time(), operations.counts().minus(before), result.written());
    out.printf("    %,.0f readings/s%n", rate.readingsPerSecond());
    checkEveryReadingIsInABucket(infrastructure.mongo(), database, sent);
    return new BucketerRun(rate, result);
  }

  /**
   * The peer row, on bucketer's Kafka Streams settings, with a grace of the fleet's span so that it
   * drops none of the readings bucketer buckets (see {@link WindowedAggregateRun}); every window
   * but the trailing readings' closes.
   */
  private WindowedAggregateRun.Result windowedAggregate(
      final Infrastructure infrastructure, final Round round, final BenchFleet.Sent sent)
      throws Exception {
    final Path stateDir = Files.createTempDirectory("bucketer-bench-windowed-");
    try {
      final BucketerConfig settings =
          new BucketerConfig(processorSettings(infrastructure, round, stateDir));
      infrastructure
          .broker()
          .createTopic(round.windowsTopic(), settings.seriesPartitions(), Map.of());
      return WindowedAggregateRun.run(
          infrastructure.clock(),
          streamsProperties(settings, round.applicationId() + "-windowed"),
          WindowedAggregateRun.Settings.droppingNone(
              round.topic(),
              round.windowsTopic(),
              settings.seriesPartitions(),
              sent.start(),
              sent.trailing()),
          new SchemaRegistryClient(infrastructure.registry().url()),
          sent.readings(),
          sent.start(),
          options.phaseTimeout(),
          n -> out.printf("    %,d readings in closed windows%n", n));
    } finally {
      Utils.delete(stateDir.toFile());
    }
  }

  /** What the harness asks of the first sensor, from the fleet's start, where its span allows. */
  private static final List<RangeReads.Question> QUESTIONS =
      List.of(
          RangeReads.Question.statistics(
              "hour average, on the hour: 1 hour bucket", Duration.ZERO, Duration.ofHours(1)),
          RangeReads.Question.statistics(
              "hour average, from half past: 2 hours", Duration.ofMinutes(30), Duration.ofHours(1)),
          RangeReads.Question.chart(
              "a day at minute resolution (hours' summaries)",
              GRANULARITIES.get(0),
              Duration.ofDays(1)),
          RangeReads.Question.chart(
              "a week at hour resolution (hour buckets)",
              GRANULARITIES.get(1),
              Duration.ofDays(7)));

  private List<RangeReads.Answer> rangeReads(
      final Infrastructure infrastructure, final Round round, final BenchFleet.Sent sent) {
    final SeriesKey series = new SeriesKey("sensor-0000", "temperature");
    final StandInOperations operations = infrastructure.operations();
    final List<RangeReads.Answer> answers = new ArrayList<>();
    try (RangeReads reads =
        new RangeReads(
            infrastructure.mongo().connectionString(),
            () -> operations.counts().documentsReturned())) {
      for (final RangeReads.Question question : QUESTIONS) {
        if (question.from(sent.start()).plus(question.length()).isAfter(sent.end())) {
          continue;
        }
        answers.add(
            reads.fromBuckets(
                question,
                round.bucketerDatabase(KEYED),
                BucketDocumentNames.DEFAULT_COLLECTION_PREFIX,
                GRANULARITIES,
                series,
                sent.start()));
        if (options.withConnector()) {
          answers.add(
              reads.fromReadingDocuments(
                  question, round.database(), CONNECTOR_COLLECTION, series, sent.start()));
        }
      }
    }
    return answers;
  }

  private static long storedDocuments(final MongoServerProcess mongo, final String database) {
    try (StoredDocuments reader =
        new StoredDocuments(
            mongo.connectionString(), database, BucketDocumentNames.DEFAULT_COLLECTION_PREFIX)) {
      return GRANULARITIES.stream().mapToLong(reader::documents).sum();
    }
  }

  /** A fast run that lost readings would be worthless: the buckets must hold every reading. */
  private void checkEveryReadingIsInABucket(
      final MongoServerProcess mongo, final String database, final BenchFleet.Sent sent) {
    try (StoredDocuments reader =
        new StoredDocuments(
            mongo.connectionString(), database, BucketDocumentNames.DEFAULT_COLLECTION_PREFIX)) {
      for (final Granularity granularity : GRANULARITIES) {
        final long inBuckets = reader.readingsInBuckets(granularity);
        if (inBuckets != sent.fleetReadings()) {
          throw new IllegalStateException(
              granularity
                  + " buckets hold "
                  + inBuckets
                  + " readings, expected "
                  + sent.fleetReadings());
        }
      }
    }
  }

  /**
   * Kafka Streams settings as bucketer runs with them ({@code settings}: its defaults and any
   * {@code -s kafka.*}), for another contender with an application id of its own.
   */
  private static Properties streamsProperties(
      final BucketerConfig settings, final String applicationId) {
    final Properties properties = BucketerApp.streamsProperties(settings, null);
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    return properties;
  }

  private Map<String, Object> processorSettings(
      final Infrastructure infrastructure, final Round round, final Path stateDir) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, infrastructure.broker().bootstrapServers());
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, infrastructure.registry().url());
    settings.put(MongoSettings.URI, infrastructure.mongo().connectionString());
    settings.put(MongoSettings.DATABASE, round.database());
    settings.put(InputSettings.TOPIC, round.topic());
    settings.put(KafkaSettings.BUCKETS_TOPIC, round.bucketsTopic());
    settings.put(KafkaSettings.DEAD_LETTER_TOPIC, round.deadLetterTopic());
    settings.put(KafkaSettings.APPLICATION_ID, round.applicationId());
    settings.put(KafkaSettings.SERIES_PARTITIONS, Integer.toString(SERIES_PARTITIONS));
    settings.put(KafkaSettings.TOPIC_REPLICATION_FACTOR, "1");
    // The trailing readings close every window by event time; nothing should close by wall clock.
    settings.put(WindowSettings.IDLE_TIMEOUT, "1h");
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    settings.putAll(options.processorSettings());
    return settings;
  }
}
