package io.bucketer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.mongodb.client.model.Filters;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.backfill.Backfill.Mode;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.cli.BucketerCli;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoConnection;
import io.bucketer.windows.InMemoryWindowStores;
import io.bucketer.windows.WindowLifecycle;
import io.bucketer.windows.WindowStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import reactor.core.publisher.Flux;

/**
 * {@code bucketer backfill} against the stream's own output. The same readings go through the real
 * window lifecycle twice: configuration A has 1m, 15m, 1h and 1d from the start, configuration B
 * only 1m and 1h; each writes its buckets with the sink's writer into a database of its own in the
 * MongoDB stand-in. Backfilling 15m and 1d into B must then give A's documents: the same ids, and
 * per document the same counts, sums, extremes, first and last readings, summaries, cutting into
 * documents and revisions, and counts of resends and late readings, with the average and deviation
 * equal to rounding.
 *
 * <p>The readings are multiples of 1/16 well below 2^40, so every sum of them is exact whatever the
 * order of the additions: the stream adds a late reading to a coarse window's running sum, a
 * backfill sums the finer windows' sums, and only such values make both sums equal to the bit.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BackfillIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity QUARTER = Granularity.parse("15m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Granularity DAY = Granularity.parse("1d");
  private static final Granularity FIVE_MINUTES = Granularity.parse("5m");
  private static final List<Granularity> ALL = List.of(MINUTE, QUARTER, HOUR, DAY);

  /** With 15m rolled up from 5m. */
  private static final List<Granularity> CHAINED =
      List.of(MINUTE, FIVE_MINUTES, QUARTER, HOUR, DAY);

  private static final String PREFIX = BucketDocumentNames.DEFAULT_COLLECTION_PREFIX;
  private static final Duration GRACE = Duration.ofSeconds(10);
  private static final Duration HORIZON = Duration.ofHours(36);

  /**
   * Small enough that minutes of the busy stretch, quarters and days are cut into several
   * documents.
   */
  private static final BucketLayout LAYOUT = new BucketLayout(10, 8, Set.of());

  private static final Instant DAY_ONE = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant END = Instant.parse("2026-03-03T00:30:00Z");

  /** When the held-back late readings are sent: day one has closed in every granularity. */
  private static final Instant LATE_SENT_AT = Instant.parse("2026-03-02T03:00:00Z");

  private static final Instant NOW = Instant.parse("2026-03-10T00:00:00Z");

  private static final SeriesKey BOILER_1 = new SeriesKey("boiler-1", "temperature");
  private static final SeriesKey BOILER_2 = new SeriesKey("boiler-2", "temperature");
  private static final SeriesKey METER = new SeriesKey("meter-7", null);

  private static MongoServer server;
  private static MongoClient client;
  private static String uri;

  private record Sent(
      SeriesKey series, Measurement measurement, Integer utcOffsetMinutes, boolean late) {

    Sent(final SeriesKey series, final Measurement measurement, final Integer utcOffsetMinutes) {
      this(series, measurement, utcOffsetMinutes, false);
    }
  }

  @BeforeAll
  static void startMongo() {
    server = new MongoServer(new MemoryBackend());
    final InetSocketAddress address = server.bind();
    uri = "mongodb://" + address.getHostString() + ":" + address.getPort();
    client = MongoClients.create(uri);
  }

  @AfterAll
  static void stopMongo() {
    client.close();
    server.shutdownNow();
  }

  @Test
  void shouldBuildTheDocumentsAStreamWithTheGranularitiesFromTheStartWrote() {
    final List<Sent> readings = readings();
    stream(readings, ALL, "with-all");
    stream(readings, List.of(MINUTE, HOUR), "added-later");
    final Map<String, BsonDocument> quartersOfA = documents("with-all", QUARTER);
    final Map<String, BsonDocument> daysOfA = documents("with-all", DAY);
    assertThat(quartersOfA.values())
        .as("quarters cut into several documents")
        .anyMatch(document -> document.getInt32("seq").getValue() > 0);
    assertThat(daysOfA.values())
        .as("days revised by late readings")
        .anyMatch(document -> document.getInt32("revision").getValue() > 0);
    assertThat(documents("added-later", QUARTER)).isEmpty();

    // A dry run reads and counts, and writes nothing.
    final List<String> dryRun = new ArrayList<>();
    final BackfillCounts wouldWrite = backfill("added-later", true, dryRun);
    assertThat(documents("added-later", QUARTER)).isEmpty();
    assertThat(documents("added-later", DAY)).isEmpty();
    assertThat(wouldWrite.of(QUARTER).written()).isEqualTo(quartersOfA.size());
    assertThat(dryRun.get(dryRun.size() - 1)).startsWith("dry run done, nothing written,");

    // The command, with run's settings; the real clock's default until covers March.
    final StringWriter out = new StringWriter();
    final CommandLine command = BucketerCli.commandLine();
    command.setOut(new PrintWriter(out));
    assertThat(
            command.execute(
                "backfill",
                "-s",
                "bootstrap.servers=localhost:1",
                "-s",
                "schema.registry.url=http://localhost:1",
                "-s",
                "mongodb.uri=" + uri,
                "-s",
                "mongodb.database=added-later",
                "-s",
                "granularities=1m,15m,1h,1d",
                "--granularity",
                "1d,15m",
                "--from",
                "2026-03-01T00:00:00Z",
                "--dry-run"))
        .isZero();
    assertThat(out.toString())
        .contains(
            // Its layout's documents hold up to 56 summaries: one document a window.
            String.format(
                "15m %,d documents to write",
                quartersOfA.values().stream()
                    .filter(quarter -> quarter.getInt32("seq").getValue() == 0)
                    .count()),
            "dry run done, nothing written");
    assertThat(documents("added-later", QUARTER)).isEmpty();

    final List<String> lines = new ArrayList<>();
    final BackfillCounts counts = backfill("added-later", false, lines);
    assertThat(counts.of(QUARTER).written()).isEqualTo(quartersOfA.size());
    assertThat(counts.of(DAY).written()).isEqualTo(daysOfA.size());
    assertThat(counts.of(QUARTER).series()).isEqualTo(3);
    assertThat(lines.get(lines.size() - 1))
        .matches(
            "done in [\\d.,]+ s: 15m [\\d,]+ documents written, 0 already stored; 1d [\\d,]+"
                + " documents written, 0 already stored");

    assertThat(lines.get(0))
        .isEqualTo(
            "backfill: 15m from the 1m documents, windows from 2026-03-01T00:00:00Z until"
                + " 2026-03-08T11:45:00Z; 1d from the 1h documents, windows from"
                + " 2026-03-01T00:00:00Z until 2026-03-08T00:00:00Z, into MongoDB database"
                + " added-later");
    assertThat(lines)
        .contains(
            String.format(
                "1d from 1h: 3 series, 9 windows from %,d 1h windows; %,d documents written, 0"
                    + " already stored",
                documents("added-later", HOUR).values().stream()
                    .filter(hour -> hour.getInt32("seq").getValue() == 0)
                    .count(),
                daysOfA.size()));
    final Map<String, BsonDocument> quartersOfB = documents("added-later", QUARTER);
    final Map<String, BsonDocument> daysOfB = documents("added-later", DAY);
    assertCountsKnown(quartersOfA);
    assertCountsKnown(daysOfA);
    // boiler-1's late reading at 10:00:30 joined its minute after it closed: its day counts it
    assertThat(
            daysOfA
                .get(id(BOILER_1, DAY, DAY_ONE, 0))
                .getDocument("window")
                .getInt64("late_readings")
                .getValue())
        .isEqualTo(1);
    assertCountsKnown(quartersOfB);
    assertCountsKnown(daysOfB);
    assertEqualToRounding(quartersOfB, quartersOfA, Set.of());
    // boiler-2's late reading was the first of its minute, quarter and hour, and reached day one
    // when it had closed: the stream's day counts it as a revision, and no source window does.
    final Set<String> lateOpenedDocuments = lateOpenedDay(daysOfA);
    // The meter's late reading, the last of its minute at 23:57:40, holds into day two's first
    // minute, whose leading edge it moves: that minute and its hour are revised while day two is
    // still open, so the stream's day two counts no revision and backfill's counts one.
    final Set<String> edgeMovedDocuments = meterDayTwo(daysOfA);
    final Set<String> revisedOtherwise = new HashSet<>(lateOpenedDocuments);
    revisedOtherwise.addAll(edgeMovedDocuments);
    assertEqualToRounding(daysOfB, daysOfA, revisedOtherwise);
    for (final String id : lateOpenedDocuments) {
      assertThat(daysOfB.get(id).getInt32("revision").getValue())
          .isLessThan(daysOfA.get(id).getInt32("revision").getValue());
    }
    for (final String id : edgeMovedDocuments) {
      assertThat(daysOfB.get(id).getInt32("revision").getValue())
          .isGreaterThan(daysOfA.get(id).getInt32("revision").getValue());
    }

    // Again: nothing changes, every document already stored.
    final BackfillCounts again = backfill("added-later", false, new ArrayList<>());
    assertThat(again.of(QUARTER).written()).isZero();
    assertThat(again.of(QUARTER).alreadyStored()).isEqualTo(quartersOfA.size());
    assertThat(again.of(DAY).written()).isZero();
    assertThat(documents("added-later", QUARTER)).isEqualTo(quartersOfB);
    assertThat(documents("added-later", DAY)).isEqualTo(daysOfB);

    // Over what the stream wrote itself: nothing changes, but for the meter's day two, whose
    // revision backfill counts higher: written again, with the same readings.
    final BackfillCounts overTheStream = backfill("with-all", false, new ArrayList<>());
    assertThat(overTheStream.of(QUARTER).written()).isZero();
    assertThat(overTheStream.of(DAY).written()).isEqualTo(edgeMovedDocuments.size());
    assertThat(documents("with-all", QUARTER)).isEqualTo(quartersOfA);
    assertEqualToRounding(documents("with-all", DAY), daysOfA, edgeMovedDocuments);

    // Repair B's hours, which summarise minutes, over the quarters now there: they become A's
    // hours, at one revision above their stored one, without their documents beyond the new count.
    final Map<String, BsonDocument> hoursOfA = documents("with-all", HOUR);
    final Map<String, BsonDocument> hoursBefore = documents("added-later", HOUR);
    final long stale = hoursBefore.size() - hoursOfA.size();
    assertThat(stale).as("minute summaries cut hours into more documents").isPositive();
    final BackfillCounts wouldRepair =
        backfill("added-later", List.of(HOUR), new Backfill.Mode(true, true), new ArrayList<>());
    assertThat(documents("added-later", HOUR)).isEqualTo(hoursBefore);
    assertThat(wouldRepair.of(HOUR).written()).isEqualTo(hoursOfA.size());
    assertThat(wouldRepair.of(HOUR).staleDeleted()).isEqualTo(stale);

    final List<String> repairLines = new ArrayList<>();
    final BackfillCounts repaired =
        backfill("added-later", List.of(HOUR), new Backfill.Mode(true, false), repairLines);
    final Map<String, BsonDocument> hoursOfB = documents("added-later", HOUR);
    assertCountsKnown(hoursOfB);
    assertEqualToRounding(hoursOfB, hoursOfA, hoursOfA.keySet());
    hoursOfB.forEach(
        (id, hour) ->
            assertThat(hour.getInt32("revision").getValue())
                .as(id)
                .isEqualTo(hoursBefore.get(id).getInt32("revision").getValue() + 1));
    assertThat(repaired.of(HOUR).written()).isEqualTo(hoursOfA.size());
    assertThat(repaired.of(HOUR).staleDeleted()).isEqualTo(stale);
    assertThat(repairLines.get(repairLines.size() - 1))
        .contains(
            String.format(
                "1h %,d documents written, 0 already stored, %,d stale documents deleted",
                hoursOfA.size(), stale));

    // Again, and over the stream's own hours: nothing changes.
    final BackfillCounts repairedAgain =
        backfill("added-later", List.of(HOUR), new Backfill.Mode(true, false), new ArrayList<>());
    assertThat(repairedAgain.of(HOUR).written()).isZero();
    assertThat(repairedAgain.of(HOUR).alreadyStored()).isEqualTo(hoursOfA.size());
    assertThat(documents("added-later", HOUR)).isEqualTo(hoursOfB);
    final BackfillCounts repairedStream =
        backfill("with-all", List.of(HOUR, DAY), new Backfill.Mode(true, false), new ArrayList<>());
    assertThat(repairedStream.of(HOUR).written()).isZero();
    assertThat(repairedStream.of(DAY).written()).isZero();
    assertThat(documents("with-all", HOUR)).isEqualTo(hoursOfA);
    assertEqualToRounding(documents("with-all", DAY), daysOfA, edgeMovedDocuments);
  }

  /**
   * 15m and 1d added to a stream of 1m and 1h that ran for a day and a half: the stream builds them
   * from the restart on and leaves the windows that span it to backfill, which builds those and all
   * before. Together they are the documents of a stream that had them from the start.
   */
  @Test
  void shouldCompleteAGranularityAddedToARunningStreamAsIfItHadBeenThereFromTheStart() {
    final List<Sent> readings = readings();
    stream(readings, ALL, "reference");
    stream(readings, List.of(MINUTE, HOUR), at("2026-03-02T10:07:00Z"), ALL, "restarted");
    final Map<String, BsonDocument> quartersOfStream = documents("restarted", QUARTER);
    assertThat(quartersOfStream)
        .as("the stream builds quarters after the restart only")
        .isNotEmpty()
        .allSatisfy(
            (id, quarter) ->
                assertThat(quarter.getDateTime("start_date").getValue())
                    .isGreaterThanOrEqualTo(Instant.parse("2026-03-02T10:15:00Z").toEpochMilli()));

    final BackfillCounts counts = backfill("restarted", false, new ArrayList<>());

    assertThat(counts.of(QUARTER).alreadyStored()).isEqualTo(quartersOfStream.size());
    assertEqualToRounding(
        documents("restarted", QUARTER), documents("reference", QUARTER), Set.of());
    assertDaysEqualToTheStreams("restarted", "reference");
  }

  /**
   * A chain: 15m built from the 5m windows the same backfill builds (not stored before it), and 1d
   * from the stored 1h. The dry run counts, per target, the documents the real run then writes, and
   * writes none; the real run's 5m and 15m documents are those of a stream that had them from the
   * start.
   */
  @Test
  void shouldBuildAChainedTargetFromTheWindowsTheSameBackfillBuildsDryRunOrNot() {
    final List<Sent> readings = readings();
    stream(readings, CHAINED, "chain-reference");
    stream(readings, List.of(MINUTE, HOUR), "chain-later");

    final Command dryRun = backfillChain("chain-later", "2026-03-01T00:00:00Z", Mode.DRY_RUN);
    assertThat(dryRun.exit()).as(dryRun.err()).isZero();
    for (final Granularity target : List.of(FIVE_MINUTES, QUARTER, DAY)) {
      assertThat(documents("chain-later", target)).as("%s after the dry run", target).isEmpty();
    }
    final Command written = backfillChain("chain-later", "2026-03-01T00:00:00Z", Mode.WRITE);
    assertThat(written.exit()).as(written.err()).isZero();

    final Map<String, BsonDocument> quarters = documents("chain-reference", QUARTER);
    assertThat(dryRun.out())
        .as("the dry run counts the chained target")
        .contains(
            String.format("15m from 5m: 3 series, %,d windows", windows(quarters)),
            String.format("15m %,d documents to write", quarters.size()));
    for (final Granularity target : List.of(FIVE_MINUTES, QUARTER, DAY)) {
      final long toWrite = documentCount(dryRun.out(), target, "documents to write");
      assertThat(toWrite).as("%s to write", target).isPositive();
      assertThat(documentCount(written.out(), target, "documents written"))
          .as("%s written, against the dry run's count", target)
          .isEqualTo(toWrite);
      assertThat(documents("chain-later", target)).hasSize((int) toWrite);
    }
    assertEqualToRounding(
        documents("chain-later", FIVE_MINUTES),
        documents("chain-reference", FIVE_MINUTES),
        Set.of());
    assertEqualToRounding(documents("chain-later", QUARTER), quarters, Set.of());
    assertDaysEqualToTheStreams("chain-later", "chain-reference");
  }

  /**
   * The days of {@code database} equal those a stream with every granularity wrote into {@code
   * stream}, but for the revisions of the two days whose late readings each counts otherwise
   * ({@link #lateOpenedDay}, {@link #meterDayTwo}).
   */
  private static void assertDaysEqualToTheStreams(final String database, final String stream) {
    final Map<String, BsonDocument> days = documents(stream, DAY);
    final Set<String> revisedOtherwise = new HashSet<>(lateOpenedDay(days));
    revisedOtherwise.addAll(meterDayTwo(days));
    assertEqualToRounding(documents(database, DAY), days, revisedOtherwise);
  }

  /**
   * A {@code --from} inside a 15m window that the 15m target is built from 5m windows of the same
   * backfill: the chain starts at the 15m window's start, so that its 5m windows are all built, and
   * every window built is whole. At 09:00 boiler-1 carries in a reading; boiler-2 carries in none
   * (it was silent from 05:00). Before, the 15m window at 09:00 saw only the 5m windows from 09:05,
   * and the command failed on the reading carried into the 09:05 window.
   */
  @Test
  void shouldBuildEveryWindowOfAChainWholeWhateverTheFrom() {
    final List<Sent> readings = readings();
    stream(readings, CHAINED, "unaligned-reference");
    stream(readings, List.of(MINUTE, HOUR), "unaligned-later");
    stream(readings, List.of(MINUTE, HOUR), "aligned-later");

    final Command unaligned = backfillChain("unaligned-later", "2026-03-01T09:05:00Z", Mode.WRITE);
    final Command aligned = backfillChain("aligned-later", "2026-03-01T09:00:00Z", Mode.WRITE);

    assertThat(unaligned.exit()).as(unaligned.err()).isZero();
    assertThat(aligned.exit()).as(aligned.err()).isZero();
    assertThat(unaligned.out())
        .contains(
            "5m from 2026-03-01T09:00:00Z: the first 15m window built from it starts there, and is"
                + " built whole");
    final long nine = at("2026-03-01T09:00:00Z");
    final Map<String, BsonDocument> quarters = documents("unaligned-later", QUARTER);
    assertThat(
            quarters
                .get(id(BOILER_1, QUARTER, Instant.ofEpochMilli(nine), 0))
                .getDocument("window")
                .containsKey("carry_in"))
        .as("boiler-1's 15m window at 09:00 carries a reading in")
        .isTrue();
    assertThat(
            quarters
                .get(id(BOILER_2, QUARTER, Instant.ofEpochMilli(nine), 0))
                .getDocument("window")
                .containsKey("carry_in"))
        .as("boiler-2's 15m window at 09:00 carries no reading in")
        .isFalse();
    for (final Granularity target : List.of(FIVE_MINUTES, QUARTER)) {
      final Map<String, BsonDocument> built = documents("unaligned-later", target);
      assertThat(built).isEqualTo(documents("aligned-later", target));
      assertThat(built.values())
          .allSatisfy(
              document ->
                  assertThat(document.getDateTime("start_date").getValue())
                      .isGreaterThanOrEqualTo(nine));
      assertEqualToRounding(
          built, startingFrom(documents("unaligned-reference", target), nine), Set.of());
    }
  }

  /**
   * Stored source documents that contradict each other (two minutes of a quarter lost, the next one
   * carrying in a reading from within the quarter): the command names the window in one line, and
   * exits with 4, writing the other windows.
   */
  @Test
  void shouldNameAWindowItCannotBuildInOneLineAndExitWith4() {
    stream(readings(), List.of(MINUTE, HOUR), "contradicting");
    Flux.from(
            client
                .getDatabase("contradicting")
                .getCollection(BucketDocumentNames.collectionName(PREFIX, MINUTE))
                .deleteMany(
                    Filters.and(
                        Filters.eq("sensor_id", BOILER_1.sensorId()),
                        Filters.in(
                            "start_date",
                            new Date(at("2026-03-01T10:00:00Z")),
                            new Date(at("2026-03-01T10:01:00Z"))))))
        .blockLast(Duration.ofSeconds(30));

    final Command command = backfillCommand("contradicting", "2026-03-01T00:00:00Z");

    assertThat(command.exit()).isEqualTo(4);
    assertThat(command.err().strip())
        .doesNotContain("\n", "Exception", "\tat ")
        .startsWith(
            "bucketer backfill: the 15m window of boiler-1/temperature at"
                + " 2026-03-01T10:00:00Z cannot be built from its stored 1m windows:");
    assertThat(command.err().strip().lines()).hasSize(1);
  }

  private record Command(int exit, String out, String err) {}

  /**
   * A backfill of 5m, 15m and 1d into {@code database}, as the command runs it, with the stream's
   * layout: what it prints, one line after another, and its exit status.
   */
  private static Command backfillChain(final String database, final String from, final Mode mode) {
    final BackfillPlan plan =
        BackfillPlan.of(
            new BackfillPlan.Request(
                CHAINED,
                LAYOUT,
                Retention.NONE,
                GRACE,
                HORIZON,
                List.of(FIVE_MINUTES, QUARTER, DAY),
                Instant.parse(from),
                Optional.empty()),
            NOW);
    final List<String> lines = new ArrayList<>();
    Backfill.run(settings(database, CHAINED), plan, mode, Duration.ofMinutes(1), lines::add);
    return new Command(0, String.join("\n", lines), "");
  }

  /** {@code bucketer backfill} of 15m into {@code database}, with run's settings. */
  private static Command backfillCommand(final String database, final String from) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine command = BucketerCli.commandLine();
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    final int exit =
        command.execute(
            "backfill",
            "-s",
            "bootstrap.servers=localhost:1",
            "-s",
            "schema.registry.url=http://localhost:1",
            "-s",
            "mongodb.uri=" + uri,
            "-s",
            "mongodb.database=" + database,
            "-s",
            "granularities=1m,15m,1h,1d",
            "--granularity",
            "15m",
            "--from",
            from,
            "--until",
            "2026-03-03T00:00:00Z");
    return new Command(exit, out.toString(), err.toString());
  }

  /** The count of documents the last line of {@code out} gives {@code target}. */
  private static long documentCount(final String out, final Granularity target, final String what) {
    final java.util.regex.Matcher matcher =
        java.util.regex.Pattern.compile("[:;] " + target.label() + " ([\\d,]+) " + what)
            .matcher(out.strip().lines().reduce((first, second) -> second).orElseThrow());
    assertThat(matcher.find()).as("%s in %s", target, out).isTrue();
    return Long.parseLong(matcher.group(1).replace(",", ""));
  }

  private static long windows(final Map<String, BsonDocument> documents) {
    return documents.values().stream()
        .filter(document -> document.getInt32("seq").getValue() == 0)
        .count();
  }

  private static Map<String, BsonDocument> startingFrom(
      final Map<String, BsonDocument> documents, final long from) {
    final Map<String, BsonDocument> later = new TreeMap<>();
    documents.forEach(
        (id, document) -> {
          if (document.getDateTime("start_date").getValue() >= from) {
            later.put(id, document);
          }
        });
    return later;
  }

  /**
   * Three series over two days and a half hour: boiler-1 every 90 s with a busy ten minutes and a
   * change of UTC offset, boiler-2 every 2 minutes with gaps of hours and of quarters, the meter
   * every 150 s with no metric. Three late readings are held back and sent once day one has closed:
   * two into minutes that hold readings, one the first of its minute, quarter and hour.
   */
  private static List<Sent> readings() {
    final SplittableRandom random = new SplittableRandom(30);
    final List<Sent> onTime = new ArrayList<>();
    final long from = DAY_ONE.toEpochMilli();
    final long to = END.toEpochMilli();
    final long offsetChange = Instant.parse("2026-03-02T12:00:00Z").toEpochMilli();
    for (long t = from + 7_000; t < to; t += 90_000) {
      onTime.add(new Sent(BOILER_1, reading(t, 20, random), t < offsetChange ? 60 : 120));
    }
    final long busy = Instant.parse("2026-03-01T08:00:00Z").toEpochMilli();
    // Even seconds, where boiler-1's own readings fall on odd ones: no two share a time.
    for (long t = busy + 2_000; t < busy + 600_000; t += 4_000) {
      onTime.add(new Sent(BOILER_1, reading(t, 20, random), 60));
    }
    for (long t = from; t < to; t += 120_000) {
      final Instant at = Instant.ofEpochMilli(t);
      final boolean gap =
          in(at, "2026-03-01T05:00:00Z", "2026-03-01T09:00:00Z")
              || in(at, "2026-03-02T13:05:00Z", "2026-03-02T13:40:00Z");
      if (!gap) {
        onTime.add(new Sent(BOILER_2, reading(t, 70, random), null));
      }
    }
    for (long t = from; t < to; t += 150_000) {
      onTime.add(new Sent(METER, reading(t, 1_000, random), -300));
    }
    onTime.sort(Comparator.comparingLong(sent -> sent.measurement().timestamp()));
    final List<Sent> late =
        List.of(
            new Sent(BOILER_1, reading(at("2026-03-01T10:00:30Z"), 20, random), 60, true),
            new Sent(BOILER_2, reading(at("2026-03-01T06:30:00Z"), 70, random), null, true),
            new Sent(METER, reading(at("2026-03-01T23:57:40Z"), 1_000, random), -300, true));
    final List<Sent> all = new ArrayList<>();
    boolean lateSent = false;
    for (final Sent sent : onTime) {
      if (!lateSent && sent.measurement().timestamp() >= LATE_SENT_AT.toEpochMilli()) {
        all.addAll(late);
        lateSent = true;
      }
      all.add(sent);
    }
    return all;
  }

  /** A multiple of 1/16 around {@code level}. */
  private static Measurement reading(
      final long timestamp, final double level, final SplittableRandom random) {
    return new Measurement(
        timestamp, Math.round((level + random.nextGaussian() * level / 10) * 16) / 16.0);
  }

  private static boolean in(final Instant at, final String from, final String until) {
    return !at.isBefore(Instant.parse(from)) && at.isBefore(Instant.parse(until));
  }

  private static long at(final String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  /** The real window lifecycle over {@code readings}, its buckets written as the sink does. */
  private static void stream(
      final List<Sent> readings, final List<Granularity> granularities, final String database) {
    stream(readings, granularities, Long.MAX_VALUE, granularities, database);
  }

  /**
   * The real window lifecycle over {@code readings}, with {@code before} until the first reading
   * sent at or after {@code restart}, then restarted over the same store with {@code after}.
   */
  private static void stream(
      final List<Sent> readings,
      final List<Granularity> before,
      final long restart,
      final List<Granularity> after,
      final String database) {
    final WindowStore store = InMemoryWindowStores.create();
    final long wallClock = END.toEpochMilli();
    WindowLifecycle lifecycle = lifecycle(before, store, wallClock);
    boolean restarted = false;
    final List<ClosedBucket> emitted = new ArrayList<>();
    for (final Sent sent : readings) {
      if (!restarted && !sent.late() && sent.measurement().timestamp() >= restart) {
        lifecycle = lifecycle(after, store, wallClock);
        restarted = true;
      }
      final WindowLifecycle.Outcome outcome =
          lifecycle.accept(
              sent.series(), sent.measurement(), sent.utcOffsetMinutes(), wallClock, emitted::add);
      assertThat(outcome)
          .as("%s", sent)
          .isEqualTo(
              sent.late() ? WindowLifecycle.Outcome.LATE_MERGED : WindowLifecycle.Outcome.ON_TIME);
    }
    // The series then fall quiet: the wall clock closes their last windows.
    lifecycle.closeIdleSeries(NOW.toEpochMilli(), emitted::add);
    try (MongoBucketWriter writer =
        new MongoBucketWriter(
            client.getDatabase(database), PREFIX, after, Retention.NONE, 200, 2)) {
      writer.ensureIndexes(Duration.ofSeconds(30));
      for (int i = 0; i < emitted.size(); i += 500) {
        writer.write(emitted.subList(i, Math.min(emitted.size(), i + 500)), Duration.ofSeconds(30));
      }
    }
  }

  private static WindowLifecycle lifecycle(
      final List<Granularity> granularities, final WindowStore store, final long wallClock) {
    final WindowLifecycle lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                granularities, GRACE, Duration.ofSeconds(30), HORIZON, LAYOUT),
            store,
            delta -> {});
    lifecycle.restore(wallClock);
    return lifecycle;
  }

  private static BackfillCounts backfill(
      final String database, final boolean dryRun, final List<String> lines) {
    return backfill(
        database,
        List.of(DAY, QUARTER),
        dryRun ? Backfill.Mode.DRY_RUN : Backfill.Mode.WRITE,
        lines);
  }

  private static BackfillCounts backfill(
      final String database,
      final List<Granularity> targets,
      final Backfill.Mode mode,
      final List<String> lines) {
    final BackfillPlan plan =
        BackfillPlan.of(
            new BackfillPlan.Request(
                ALL, LAYOUT, Retention.NONE, GRACE, HORIZON, targets, DAY_ONE, Optional.empty()),
            NOW);
    return Backfill.run(settings(database, ALL), plan, mode, Duration.ofMinutes(1), lines::add);
  }

  private static Backfill.Settings settings(
      final String database, final List<Granularity> granularities) {
    return new Backfill.Settings(
        MongoConnection.of(uri),
        database,
        PREFIX,
        granularities,
        Retention.NONE,
        LAYOUT.maxSummariesPerBucket(),
        50,
        2,
        Duration.ofSeconds(30),
        Duration.ofSeconds(1));
  }

  /** The documents of one granularity by their {@code _id}'s JSON. */
  private static Map<String, BsonDocument> documents(
      final String database, final Granularity granularity) {
    final List<BsonDocument> all =
        Flux.from(
                client
                    .getDatabase(database)
                    .getCollection(
                        BucketDocumentNames.collectionName(PREFIX, granularity), BsonDocument.class)
                    .find())
            .collectList()
            .block(Duration.ofSeconds(30));
    return all.stream()
        .collect(
            Collectors.toMap(
                document -> document.getDocument("_id").toJson(),
                document -> document,
                (one, other) -> one,
                TreeMap::new));
  }

  /**
   * The documents of boiler-2's day one. Its late reading was the first of its minute, quarter and
   * hour, and reached the day when it had closed: the stream's day counts it as a revision, and no
   * source window does.
   */
  private static Set<String> lateOpenedDay(final Map<String, BsonDocument> days) {
    final int parts = days.get(id(BOILER_2, DAY, DAY_ONE, 0)).getInt32("buckets").getValue();
    final Set<String> documents = new HashSet<>();
    for (int seq = 0; seq < parts; seq++) {
      documents.add(id(BOILER_2, DAY, DAY_ONE, seq));
    }
    return documents;
  }

  /** The documents of the meter's day two, whose first minute the late 23:57:40 reading reaches. */
  private static Set<String> meterDayTwo(final Map<String, BsonDocument> days) {
    final Instant dayTwo = DAY_ONE.plus(Duration.ofDays(1));
    final int parts = days.get(id(METER, DAY, dayTwo, 0)).getInt32("buckets").getValue();
    final Set<String> documents = new HashSet<>();
    for (int seq = 0; seq < parts; seq++) {
      documents.add(id(METER, DAY, dayTwo, seq));
    }
    return documents;
  }

  private static String id(
      final SeriesKey series, final Granularity granularity, final Instant start, final int seq) {
    return new BsonDocument()
        .append("sensor_id", new BsonString(series.sensorId()))
        .append(
            "metric", series.metric() == null ? BsonNull.VALUE : new BsonString(series.metric()))
        .append("granularity", new BsonString(granularity.label()))
        .append("start", new BsonDateTime(start.toEpochMilli()))
        .append("seq", new BsonInt32(seq))
        .toJson();
  }

  /**
   * Every document of {@code actual} equals {@code expected}'s of the same id, but that averages
   * deviations, integrals and time-weighted averages (at the top, in the window and in each
   * summary) are equal to a relative 1e-12, that the revisions of the documents of {@code
   * revisedOtherwise} may differ.
   */
  private static void assertEqualToRounding(
      final Map<String, BsonDocument> actual,
      final Map<String, BsonDocument> expected,
      final Set<String> revisedOtherwise) {
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    for (final String id : expected.keySet()) {
      final Map<String, Double> roundedActual = new HashMap<>();
      final Map<String, Double> roundedExpected = new HashMap<>();
      final BsonDocument exactActual = exactPart(actual.get(id), "", roundedActual);
      final BsonDocument exactExpected = exactPart(expected.get(id), "", roundedExpected);
      if (revisedOtherwise.contains(id)) {
        exactActual.remove("revision");
        exactExpected.remove("revision");
      }
      assertThat(exactActual).as(id).isEqualTo(exactExpected);
      assertThat(roundedActual.keySet()).as(id).isEqualTo(roundedExpected.keySet());
      roundedExpected.forEach(
          (path, value) ->
              assertThat(roundedActual.get(path))
                  .as(id + " " + path)
                  .isCloseTo(value, within(Math.abs(value) * 1e-12)));
    }
  }

  private static final Set<String> ROUNDED = Set.of("avg", "stddev", "integral", "twa");

  /** Documents of version 4, whose counts are known: a count absent from them is 0. */
  private static void assertCountsKnown(final Map<String, BsonDocument> documents) {
    assertThat(documents)
        .allSatisfy(
            (id, document) ->
                assertThat(document.getInt32("schema_version").getValue()).as(id).isEqualTo(4));
  }

  /**
   * {@code document} without the fields a backfill sums in another order than the stream, averages,
   * deviations, integrals and time-weighted averages, which go to {@code rounded} by path.
   */
  private static BsonDocument exactPart(
      final BsonDocument document, final String path, final Map<String, Double> rounded) {
    final BsonDocument exact = new BsonDocument();
    for (final Map.Entry<String, BsonValue> field : document.entrySet()) {
      final String name = field.getKey();
      final BsonValue value = field.getValue();
      if (ROUNDED.contains(name)) {
        rounded.put(path + name, value.asNumber().doubleValue());
      } else if (value.isDocument() && !name.equals("_id")) {
        exact.append(name, exactPart(value.asDocument(), path + name + ".", rounded));
      } else if (value.isArray() && name.equals("summaries")) {
        final BsonArray summaries = new BsonArray();
        final List<BsonValue> values = value.asArray().getValues();
        for (int i = 0; i < values.size(); i++) {
          summaries.add(exactPart(values.get(i).asDocument(), path + name + i + ".", rounded));
        }
        exact.append(name, summaries);
      } else {
        exact.append(name, value);
      }
    }
    return exact;
  }
}
