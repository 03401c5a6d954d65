package io.bucketer.backfill;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.query.StoredWindows;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sink.BucketDocuments;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoBucketWriter.Repaired;
import io.bucketer.sink.MongoConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.bson.BsonDocument;

/**
 * One backfill: for each target of a {@link BackfillPlan}, read the stored windows of its source
 * granularity in series and start order, build each target window from the source windows it spans
 * ({@link TargetWindows}), and write its documents through the sink's writer a batch at a time. A
 * chained target (15m from 5m, both built by this backfill) reads its source's windows as they are
 * built, not stored: so a dry run, which stores nothing, builds and counts it as the real run does.
 * One series' window at a time is held per target, never the range: a year of a fleet's minutes
 * streams through. Idempotent: a document is replaced only by a higher revision, so a second
 * backfill changes nothing, and a backfill beside the running stream leaves what the stream wrote
 * (see {@link RolledUpWindow} for the one exception).
 */
public final class Backfill {

  /**
   * A MongoDB batch that goes unacknowledged this long stops the backfill, as a resink's does: an
   * operator should see the cause rather than wait without end.
   */
  static final Duration GIVE_UP_AFTER = Duration.ofMinutes(5);

  private final StoredWindows stored;
  private final BucketOutput output;
  private final int maxSummaries;
  private final int batch;
  private final boolean repair;
  private final BackfillCounts counts;
  private final Consumer<String> lines;
  private final Clock clock;
  private final Duration progressEvery;
  private final Map<Granularity, TargetOutput> outputs = new LinkedHashMap<>();
  private Instant lastProgress;

  Backfill(
      final StoredWindows stored,
      final BucketOutput output,
      final int maxSummaries,
      final int batch,
      final boolean repair,
      final boolean dryRun,
      final Consumer<String> lines,
      final Clock clock,
      final Duration progressEvery) {
    this.stored = stored;
    this.output = output;
    this.maxSummaries = maxSummaries;
    this.batch = batch;
    this.repair = repair;
    this.counts = new BackfillCounts(dryRun);
    this.lines = lines;
    this.clock = clock;
    this.progressEvery = progressEvery;
  }

  /**
   * Where to read and write, and how.
   *
   * @param maxSummaries summaries per document: the layout's, as {@code run} cuts them
   */
  public record Settings(
      MongoConnection mongo,
      String database,
      String collectionPrefix,
      List<Granularity> granularities,
      Retention retention,
      int maxSummaries,
      int batchSize,
      int writesInFlight,
      Duration writeTimeout,
      Duration maxBackoff) {}

  /**
   * How to write.
   *
   * @param repair replace stored windows whose content differs, whatever their revision ({@link
   *     io.bucketer.sink.MongoBucketWriter#repair}), rather than only lower revisions
   * @param dryRun read and compare, write nothing
   */
  public record Mode(boolean repair, boolean dryRun) {

    public static final Mode WRITE = new Mode(false, false);
    public static final Mode DRY_RUN = new Mode(false, true);
  }

  /**
   * Builds the plan's windows from the documents of the database of {@code settings} and writes
   * them there (nothing in a dry run, which still reads), saying to {@code lines} what it does, its
   * progress every {@code progressEvery} and a summary at the end.
   *
   * @return what it built and wrote
   * @throws BackfillException when MongoDB fails a read, does not acknowledge for {@link
   *     #GIVE_UP_AFTER}, or rejects a document
   * @throws io.bucketer.sink.MongoUnusableException when MongoDB cannot be used as configured
   */
  public static BackfillCounts run(
      final Settings settings,
      final BackfillPlan plan,
      final Mode mode,
      final Duration progressEvery,
      final Consumer<String> lines) {
    final boolean dryRun = mode.dryRun();
    try (MongoBucketWriter writer =
        MongoBucketWriter.connect(
            settings.mongo(),
            settings.database(),
            settings.collectionPrefix(),
            settings.granularities(),
            settings.retention(),
            settings.batchSize(),
            settings.writesInFlight(),
            settings.writeTimeout())) {
      final BucketOutput output =
          new MongoOutput(
              writer, dryRun, settings.writeTimeout(), settings.maxBackoff(), GIVE_UP_AFTER, lines);
      return new Backfill(
              new StoredWindows(writer.database(), settings.collectionPrefix()),
              output,
              settings.maxSummaries(),
              // As many documents a write as the sink's writer sends at once: it cuts them into
              // bulk writes of sink.batch.size, sink.max.writes.in.flight of them in parallel.
              settings.batchSize() * settings.writesInFlight(),
              mode.repair(),
              dryRun,
              lines,
              Clock.systemUTC(),
              progressEvery)
          .run(plan, dryRun ? "nowhere (dry run)" : "MongoDB database " + settings.database());
    }
  }

  /** Builds every step of {@code plan}; {@code into} names the target in the first line. */
  BackfillCounts run(final BackfillPlan plan, final String into) {
    final Instant started = clock.instant();
    final StringJoiner steps = new StringJoiner("; ");
    plan.steps()
        .forEach(
            step ->
                steps.add(
                    String.format(
                        "%s from the %s documents, windows from %s until %s",
                        step.target(), step.source(), step.from(), step.until())));
    lines.accept((repair ? "backfill --repair: " : "backfill: ") + steps + ", into " + into);
    plan.notes().forEach(lines);
    output.prepare();
    lastProgress = started;
    final Map<Granularity, BackfillPlan.Step> byTarget = new LinkedHashMap<>();
    for (final BackfillPlan.Step step : plan.steps()) {
      byTarget.put(step.target(), step);
      if (!step.isEmpty()) {
        outputs.put(step.target(), new TargetOutput(counts.of(step.target(), step.source())));
      }
    }
    // Coarsest first: a chained target pulls the windows of its source target as they are built,
    // and that target is written as it is pulled (once: a second consumer builds it again unseen).
    final List<BackfillPlan.Step> coarsestFirst = new ArrayList<>(plan.steps());
    Collections.reverse(coarsestFirst);
    final Set<Granularity> built = new HashSet<>();
    for (final BackfillPlan.Step step : coarsestFirst) {
      if (!step.isEmpty() && built.add(step.target())) {
        final Iterator<List<ClosedBucket>> windows = windows(step, byTarget, built, true);
        while (windows.hasNext()) {
          windows.next();
        }
      }
    }
    for (final BackfillPlan.Step step : plan.steps()) {
      if (step.isEmpty()) {
        lines.accept(step.target() + ": no window to build before " + step.until());
      } else {
        final TargetOutput target = outputs.get(step.target());
        target.flush();
        lines.accept(counts.progressLine(target.counts));
      }
    }
    lines.accept(counts.summary(Duration.between(started, clock.instant())));
    return counts;
  }

  /**
   * The windows of {@code step} as they are built, written and counted when {@code written}. Its
   * source windows are the stored ones, or those its source target builds when that is a target of
   * the same backfill, read as they would be read back from their documents.
   */
  private Iterator<List<ClosedBucket>> windows(
      final BackfillPlan.Step step,
      final Map<Granularity, BackfillPlan.Step> byTarget,
      final Set<Granularity> built,
      final boolean written) {
    final BackfillPlan.Step producer = byTarget.get(step.source());
    final Iterator<StoredWindow> sources;
    if (producer == null) {
      sources = stored.read(step.source(), step.from(), step.until());
    } else {
      final Iterator<List<ClosedBucket>> produced =
          windows(producer, byTarget, built, built.add(producer.target()));
      sources = new ReadBack(producer.target(), produced);
    }
    final TargetWindows windows =
        new TargetWindows(
            step,
            sources,
            stored,
            maxSummaries,
            written
                ? outputs.get(step.target()).counts
                : new BackfillCounts(true).of(step.target(), step.source()));
    if (!written) {
      return windows;
    }
    final TargetOutput output = outputs.get(step.target());
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return windows.hasNext();
      }

      @Override
      public List<ClosedBucket> next() {
        final List<ClosedBucket> window = windows.next();
        output.add(window);
        progress();
        return window;
      }
    };
  }

  /** Built windows read as their documents would be read back stored ({@link StoredWindows}). */
  private final class ReadBack implements Iterator<StoredWindow> {

    private final Granularity granularity;
    private final Iterator<List<ClosedBucket>> built;

    ReadBack(final Granularity granularity, final Iterator<List<ClosedBucket>> built) {
      this.granularity = granularity;
      this.built = built;
    }

    @Override
    public boolean hasNext() {
      return built.hasNext();
    }

    @Override
    public StoredWindow next() {
      final List<BsonDocument> documents = new ArrayList<>();
      built.next().forEach(bucket -> documents.add(BucketDocuments.toDocument(bucket)));
      return stored.windowOf(granularity, documents);
    }
  }

  /** One target's documents waiting to be written, and its counts. */
  private final class TargetOutput {

    private final BackfillCounts.Target counts;
    private final List<ClosedBucket> pending = new ArrayList<>();

    TargetOutput(final BackfillCounts.Target counts) {
      this.counts = counts;
    }

    void add(final List<ClosedBucket> window) {
      pending.addAll(window);
      if (pending.size() >= batch) {
        flush();
      }
    }

    void flush() {
      if (pending.isEmpty()) {
        return;
      }
      if (repair) {
        final Repaired repaired = output.repair(pending);
        counts.documents(
            repaired.written() + repaired.unchanged(),
            repaired.unchanged(),
            repaired.staleDeleted());
      } else {
        counts.documents(pending.size(), output.write(pending), 0);
      }
      pending.clear();
    }
  }

  private void progress() {
    final Instant now = clock.instant();
    if (Duration.between(lastProgress, now).compareTo(progressEvery) >= 0) {
      outputs.values().forEach(target -> lines.accept(counts.progressLine(target.counts)));
      lastProgress = now;
    }
  }
}
