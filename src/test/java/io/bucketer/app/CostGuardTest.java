package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.app.PipelineCosts.Costs;
import io.bucketer.app.PipelineCosts.Question;
import io.bucketer.app.PipelineCosts.Variant;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.topology.TopologyNames;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The cost guard: a fixed fleet of readings goes through the topology, the sink's writer and the
 * query layer ({@link PipelineCosts}), and what it cost per reading stays within bounds set at
 * today's figures plus a small margin: Kafka records written to each topic, state-store operations,
 * MongoDB write commands and documents, bytes stored, and the documents a query reads. Nothing is
 * timed and no broker runs: the same readings give the same counts on any machine, so a bound is
 * exceeded only by a change of the code. A change that raises a figure raises its bound in the same
 * commit and says why; the measured figures are printed, one line each, to update them from.
 *
 * <p><b>What differs from production: a commit after every record.</b> Kafka's {@code
 * TopologyTestDriver} processes one record at a time and commits after each (in 4.3.1, {@code
 * completeAllProcessableWork}: process, {@code prepareCommit}, {@code commit}, {@code postCommit},
 * record by record; a list piped in goes one by one); it has no commit interval, and no public way
 * to process several records before a commit. bucketer's pre-commit hook ({@code
 * PreCommitHookStore}, {@code CommitTimeForwarder}) therefore runs after every record: the batcher
 * sends each reading across the repartition as a batch of one, and the window cache logs the change
 * of the window each reading changed. So here the repartition topic takes one record per reading
 * and the window log about one, where the bench, from a backlog with commits every 100 ms, measures
 * 0.001 and 0.003 (docs/benchmark-history.md). What this measures is the processor's regime at live
 * traffic, when a commit interval holds at most one reading of each series (sensors at 1 Hz, a
 * processor that keeps up). The windows reach their local stores once, when they close.
 *
 * <p>It still catches what it is for. Every cost a change adds per reading, per bucket or per batch
 * (a record, a put, a store, a write command) shows here one for one, whatever the commits absorb
 * in production: one more changelog record per reading moves the changelogs' figure from 1.16 to
 * 2.16, against a bound of 1.18. What it cannot see is the absorption itself: a change that breaks
 * the batcher's batches or the window cache's write-behind costs nothing more here, where every
 * batch holds one reading anyway. {@code BenchIT} guards those (repartition records and state puts
 * per reading well under 1 from a backlog). The driver's other differences do not move a figure: it
 * runs one task for all partitions, and bucketer closes windows by each series' own event time, not
 * Kafka's stream time or emit interval; the windows still open at the end close on the wall clock's
 * idle timeout, advanced once, as a quiet fleet's would.
 *
 * <p>The sink's writer receives, after each input record, the buckets that record's commit
 * released, in one call: a sink that keeps up polls what each commit made visible.
 *
 * <p><b>Readings applied as they come ({@code readings.hold=0}).</b> The driver's wall clock stands
 * still between records and it commits after each: held readings would be logged one entry a
 * reading and applied all at once when the clock moves at the end, a regime no deployment has. So
 * the counts here are those of the path every reading takes once applied, and the hold's own costs
 * (its log entries, its applies by series) are guarded live, by {@code LiveCostGuardIT}, with the
 * production default.
 */
class CostGuardTest {

  private static final BucketerConfig DEFAULTS =
      new BucketerConfig(
          Map.of(
              KafkaSettings.BOOTSTRAP_SERVERS, "unused:9092",
              InputSettings.SCHEMA_REGISTRY_URL, "http://unused:8081",
              MongoSettings.URI, "mongodb://unused:27017",
              WindowSettings.READINGS_HOLD, "0s"));

  /**
   * The fleet: 16 sensors every 5 s (200 ms of jitter) for two hours from 10:00, 23,040 readings,
   * one in fifty overtaken by up to four rounds (20 s, beyond the 10 s grace: some merge into
   * closed windows, which are written again), and every 101st sent again a round later, as a
   * gateway resends: 23,268 input records. Minute and hour buckets, the defaults.
   */
  private static final int SENSORS = 16;

  private static final Instant START = Instant.parse("2025-06-01T10:00:00Z");
  private static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final Duration SPAN = Duration.ofHours(2);
  private static final long SEED = 28;
  private static final int RESEND_EVERY = 101;

  /** Half an hour after the last reading: no reading is in the future, none too old. */
  private static final Instant WALL_CLOCK = START.plus(SPAN).plus(Duration.ofMinutes(30));

  private static final SeriesKey ASKED = new SeriesKey("sensor-0000", "temperature");
  private static final String HOUR = "documents read for an hour on the hour";
  private static final String MID_HOUR = "documents read for an hour from half past";
  private static final String DAY = "documents read for a day";
  private static final List<Question> QUESTIONS =
      List.of(
          new Question(HOUR, ASKED, START, START.plus(Duration.ofHours(1))),
          new Question(
              MID_HOUR,
              ASKED,
              START.plus(Duration.ofMinutes(30)),
              START.plus(Duration.ofMinutes(90))),
          new Question(
              DAY, ASKED, START.minus(Duration.ofHours(10)), START.plus(Duration.ofHours(14))));

  private static final String KAFKA_RECORDS_TO = "Kafka records to ";
  private static final String REPARTITION = TopologyNames.READINGS_BY_SERIES + "-repartition";
  private static final String WINDOW_LOG = changelog(TopologyNames.WINDOW_LOG_STORE);
  private static final String LEGACY_MINUTES_CHANGELOG =
      changelog(TopologyNames.legacyWindowStore(minute()));
  private static final String LEGACY_HOURS_CHANGELOG =
      changelog(TopologyNames.legacyWindowStore(hour()));
  private static final String CLOCKS_CHANGELOG = changelog(TopologyNames.CLOCK_STORE);
  private static final String LEGACY_SEALED_CHANGELOG =
      changelog(TopologyNames.LEGACY_SEALED_READINGS_STORE);

  /**
   * The bounds, per input record unless said otherwise; each comment gives the figure measured on
   * 2026-11-25. Margins are about 2 % (1 % for bytes): the smallest changes the guard is for, one
   * more changelog record per reading (+1.0) or one more write command per sink batch (+0.083,
   * 1,922 batches), are far above them, and the self-check below shows it.
   */
  private static final List<Bound> BOUNDS =
      List.of(
          // 1.0000 (23,268): each reading its own batch under the test driver, see above
          kafka(REPARTITION, 1.02),
          // 1.1739 (27,314), measured 2026-12-02: an entry per group of windows each commit
          // changed, here each record a commit (the test driver's): the minute each reading
          // changed, and at a minute's close the minute and its hour. 1.1563 (26,905) in the two
          // changelogged window stores before the window log: 1.0731 for the minutes, 0.0832 for
          // the hours. LiveCostGuardIT shows the regime the log is for.
          kafka(WINDOW_LOG, 1.19),
          // 0 : the changelogged windows before the window log, left only by an upgrade
          kafka(LEGACY_MINUTES_CHANGELOG, 0),
          kafka(LEGACY_HOURS_CHANGELOG, 0),
          kafka(LEGACY_SEALED_CHANGELOG, 0),
          // 0.00069 (16): one series clock stored per series, on the wall clock's idle close
          kafka(CLOCKS_CHANGELOG, 0.0007),
          // 1.1746 (27,330): every changelog together, a new store's included
          new Bound(KAFKA_RECORDS_TO + "all changelogs", CostGuardTest::changelogs, 1.19),
          // 0.0850 (1,977): one per document stored (1,968), one per revision of a late-merged
          // window (9)
          kafka(DEFAULTS.bucketsTopic(), 0.087),
          // 0 : clean input
          kafka(DEFAULTS.deadLetterTopic(), 0),
          // 0.09103, measured 2026-12-07: about one per closing minute, the minute before it, read
          // back for the reading its time-weighted part carries in (the closing minute and its
          // hour are in the window cache). 0.17320 before the minute a reading opens after its
          // series' clock was looked up, though no window can start there; 0.17114
          // before the windows a clock's move closes, and a quiet series' open ones, were looked
          // up one by one; 0.0857 (1,994) before each closing minute got the minute before it
          state(StateOperation.GET, 0.0915),
          // 0.0857 (1,994), measured 2026-12-02: a window written to its local store once, when
          // it closes and leaves the window cache (the minutes, the hours, and the minute 09:59).
          // 1.1668 (27,149) before, when every window a commit changed was written whole at the
          // commit: under the test driver, one per reading
          state(StateOperation.PUT, 0.0875),
          // 0.01818, measured 2026-12-07: 0.10413 before the windows a clock's move closes were
          // looked up one by one (most are in the cache) instead of read as a range of the store,
          // 0.01955 before a quiet series' open windows were too, for its next look;
          // 0.0987 before an hour's time-weighted parts were computed from its readings at its
          // close (and a minute's carried-in reading looked for further back when the minute
          // before has none)
          state(StateOperation.RANGE, 0.0186),
          // 0 : windows expire a lateness horizon (24 h) after their series' clock passed them
          state(StateOperation.DELETE, 0),
          // 0.0837 (1,947) in 1,922 batches: an insert per collection a batch writes to, an update
          // for its revisions
          new Bound("MongoDB write commands", c -> c.perReading(c.mongoWriteCommands()), 0.0855),
          // 0.0850 (1,977): one per bucket record
          new Bound(
              "MongoDB documents written", c -> c.perReading(c.mongoDocumentsWritten()), 0.087),
          // 0.0846 (1,968): the 1,920 minutes and 32 hours of 10:00 – 12:00, and the minute 09:59
          // and hour 09:00 of the 8 sensors whose first reading jittered before 10:00
          new Bound("MongoDB documents stored", c -> c.perReading(c.storedDocuments()), 0.0862),
          // 138.33, measured 2026-11-26 (a third session): 137.95 before the documents counted
          // this fleet's resends and late readings (an int64 field of 17 or 23 bytes in each window
          // and summary that has some, none in the others); 132.07 before the quantile sketches
          // (the sketch of a minute of this fleet's 12 readings takes about 35 bytes with its
          // field, in the minute's document and again in its hour's summary); 145.63 with the four
          // gap fields in every time-weighted part, now written
          // only for parts with gaps; 115.12 before the time-weighted parts (about 160 bytes in
          // each window, 40 in each summary without gaps); 113.42 before each document held its
          // schema_version (20 bytes)
          new Bound("BSON bytes stored", c -> c.perReading(c.storedBytes()), 139.3),
          // 1, 2 and 3, per question: the hour 10:00; the minute summaries of 10:00 and 11:00; the
          // hours 09:00 (one reading jittered before 10:00), 10:00 and 11:00, whole
          read(HOUR, 1),
          read(MID_HOUR, 2),
          read(DAY, 3));

  @TempDir Path stateDir;

  @Test
  void shouldKeepEveryCostPerReadingWithinItsBound() {
    final Costs costs = measure(Variant.NONE);
    print("cost guard", costs);

    // the run did what it measures: every reading once in a bucket of each granularity
    assertThat(costs.readingsInBuckets())
        .containsOnlyKeys(DEFAULTS.granularities())
        .allSatisfy((granularity, readings) -> assertThat(readings).isEqualTo(fleetReadings()));
    assertThat(unboundedTopics(costs)).as("topics written without a bound").isEmpty();
    assertThat(exceeded(costs)).as("costs above their bounds").isEmpty();
  }

  /**
   * The self-check: a processor that writes one more changelog record (one more put) per reading,
   * and a sink that sends one more write command per batch, fail the guard.
   */
  @Test
  void shouldRejectOneMoreChangelogRecordPerReadingAndOneMoreWriteCommandPerBatch() {
    final Costs costlier =
        measure(
            new Variant(
                CostGuardTest::putEachBatchAgain,
                database ->
                    Mono.from(
                            database
                                .getCollection("cost_guard_extra", BsonDocument.class)
                                .insertOne(new BsonDocument("batch", new BsonInt32(1))))
                        .block(Duration.ofSeconds(30))));
    print("cost guard, costlier variant", costlier);

    assertThat(unboundedTopics(costlier)).containsExactly(changelog(ExtraPut.STORE));
    assertThat(exceeded(costlier))
        .containsExactlyInAnyOrder(
            "Kafka records to all changelogs",
            "state puts",
            "MongoDB write commands",
            "MongoDB documents written");
  }

  private Costs measure(final Variant variant) {
    return new PipelineCosts(DEFAULTS, stateDir).run(fleet(), WALL_CLOCK, QUESTIONS, variant);
  }

  /** One figure's bound, per input record unless its name says otherwise. */
  private record Bound(String figure, ToDoubleFunction<Costs> measure, double max) {}

  private static Bound kafka(final String topic, final double max) {
    return new Bound(KAFKA_RECORDS_TO + topic, c -> c.perReading(c.kafkaRecords(topic)), max);
  }

  private static Bound state(final StateOperation operation, final double max) {
    return new Bound(
        "state " + operation.tag() + "s",
        c -> c.perReading(c.stateOperations().get(operation)),
        max);
  }

  private static Bound read(final String question, final double max) {
    return new Bound(question, c -> c.documentsRead().get(question), max);
  }

  private static double changelogs(final Costs costs) {
    return costs.perReading(
        costs.kafkaRecords().entrySet().stream()
            .filter(topic -> topic.getKey().endsWith("-changelog"))
            .mapToLong(Map.Entry::getValue)
            .sum());
  }

  private static List<String> exceeded(final Costs costs) {
    return BOUNDS.stream()
        .filter(bound -> bound.measure().applyAsDouble(costs) > bound.max())
        .map(Bound::figure)
        .toList();
  }

  /** Topics written to that have no bound of their own: a new topic is a new cost. */
  private static Set<String> unboundedTopics(final Costs costs) {
    final Set<String> bounded = BOUNDS.stream().map(Bound::figure).collect(Collectors.toSet());
    final Set<String> unbounded = new TreeSet<>();
    costs
        .kafkaRecords()
        .forEach(
            (topic, records) -> {
              if (records > 0 && !bounded.contains(KAFKA_RECORDS_TO + topic)) {
                unbounded.add(topic);
              }
            });
    return unbounded;
  }

  /**
   * One line per figure, to update a bound from: the test's output is where a reader finds them
   * (surefire keeps it in {@code target/surefire-reports/*-output.txt}).
   */
  private static void print(final String run, final Costs costs) {
    System.out.printf(
        "%s: %,d input records, %,d sink batches%n", run, costs.readings(), costs.sinkBatches());
    for (final Bound bound : BOUNDS) {
      System.out.printf(
          "%s: %-55s %12.5f  (bound %s)%n",
          run,
          bound.figure(),
          bound.measure().applyAsDouble(costs),
          BigDecimal.valueOf(bound.max()).toPlainString());
    }
  }

  /**
   * Adds to the topology what a careless change might: a logged store beside the aggregator that
   * takes one put, so one changelog record, per record of the repartition, and counts it with the
   * aggregator's puts.
   */
  private static void putEachBatchAgain(final Topology topology, final BucketerMetrics metrics) {
    final String processor = "cost-guard-extra-put";
    topology.addProcessor(processor, () -> new ExtraPut(metrics), repartitionSource(topology));
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(ExtraPut.STORE), Serdes.Bytes(), Serdes.ByteArray()),
        processor);
  }

  private static String repartitionSource(final Topology topology) {
    for (final TopologyDescription.Subtopology subtopology : topology.describe().subtopologies()) {
      for (final TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Source source
            && source.topicSet() != null
            && source.topicSet().stream().anyMatch(topic -> topic.endsWith(REPARTITION))) {
          return source.name();
        }
      }
    }
    throw new IllegalStateException("no source of " + REPARTITION + " in " + topology.describe());
  }

  /** One put per record, into a store of its own. */
  private static final class ExtraPut implements Processor<Object, Object, Void, Void> {

    static final String STORE = "cost-guard-extra-store";

    private final BucketerMetrics metrics;
    private KeyValueStore<Bytes, byte[]> store;

    ExtraPut(final BucketerMetrics metrics) {
      this.metrics = metrics;
    }

    @Override
    public void init(final ProcessorContext<Void, Void> context) {
      store = context.getStateStore(STORE);
    }

    @Override
    public void process(final Record<Object, Object> record) {
      metrics.stateOperation(StateOperation.PUT);
      store.put(
          Bytes.wrap(String.valueOf(record.key()).getBytes(StandardCharsets.UTF_8)), new byte[1]);
    }
  }

  private static List<Reading> fleet() {
    final List<Reading> generated =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                SENSORS,
                START,
                INTERVAL,
                Duration.ofMillis(200),
                0.02,
                SENSORS * 4,
                fleetReadings(),
                SEED));
    final List<Reading> sent = new ArrayList<>(generated);
    // from the end, so that the positions still to come are those of the generated list
    for (int i = generated.size() - SENSORS - 1; i >= 0; i -= RESEND_EVERY) {
      sent.add(i + SENSORS, generated.get(i));
    }
    return sent;
  }

  private static long fleetReadings() {
    return SPAN.dividedBy(INTERVAL) * SENSORS;
  }

  private static String changelog(final String store) {
    return store + "-changelog";
  }

  private static Granularity minute() {
    return DEFAULTS.granularities().get(0);
  }

  private static Granularity hour() {
    return DEFAULTS.granularities().get(1);
  }
}
