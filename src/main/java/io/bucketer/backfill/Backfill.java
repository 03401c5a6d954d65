package io.bucketer.backfill;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.query.StoreUnavailableException;
import io.bucketer.query.StoredBuckets.NearReading;
import io.bucketer.query.StoredWindows;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoBucketWriter.Repaired;
import io.bucketer.sink.MongoConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One backfill: for each target of a {@link BackfillPlan}, finest first, read the stored windows of
 * its source granularity in series and start order, build each target window from the source
 * windows it spans ({@link RolledUpWindow}), and write its documents through the sink's writer a
 * batch at a time. One series' window at a time is held, never the range: a year of a fleet's
 * minutes streams through. Idempotent: a document is replaced only by a higher revision, so a
 * second backfill changes nothing, and a backfill beside the running stream leaves what the stream
 * wrote (see {@link RolledUpWindow} for the one exception).
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
  private final List<ClosedBucket> pending = new ArrayList<>();
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
    for (final BackfillPlan.Step step : plan.steps()) {
      if (step.isEmpty()) {
        lines.accept(step.target() + ": no window to build before " + step.until());
        continue;
      }
      final BackfillCounts.Target target = counts.of(step.target(), step.source());
      build(step, target);
      lines.accept(counts.progressLine(target));
    }
    lines.accept(counts.summary(Duration.between(started, clock.instant())));
    return counts;
  }

  private void build(final BackfillPlan.Step step, final BackfillCounts.Target target) {
    final Iterator<StoredWindow> windows = stored.read(step.source(), step.from(), step.until());
    final List<StoredWindow> span = new ArrayList<>();
    // The series' source window before the span, when this run read it: its last reading is the
    // series' last before the span's window.
    StoredWindow before = null;
    while (hasNext(windows, step)) {
      final StoredWindow window = next(windows, step);
      target.sourceWindow();
      if (!span.isEmpty()) {
        final StoredWindow first = span.get(0);
        final boolean sameSeries = first.series().equals(window.series());
        if (!sameSeries
            || step.target().windowStart(first.start())
                != step.target().windowStart(window.start())) {
          built(step, span, before, target);
          before = sameSeries ? span.get(span.size() - 1) : null;
          span.clear();
          if (!sameSeries) {
            target.seriesDone();
          }
        }
      }
      span.add(window);
      progress(target);
    }
    if (!span.isEmpty()) {
      built(step, span, before, target);
      target.seriesDone();
    }
    flush(target);
  }

  private void built(
      final BackfillPlan.Step step,
      final List<StoredWindow> span,
      final StoredWindow before,
      final BackfillCounts.Target target) {
    final StoredWindow first = span.get(0);
    final long start = step.target().windowStart(first.start());
    // Asked only once the sources' weighting is known: it bounds how far to look.
    final long maxGap = first.weighting() == null ? 0 : first.weighting().maxGapMillis();
    pending.addAll(
        RolledUpWindow.buckets(
            first.series(),
            step.target(),
            step.source(),
            start,
            span,
            maxSummaries,
            () ->
                before != null
                    ? new NearReading(true, before.stats().last())
                    : lookUp(
                        step,
                        () ->
                            stored.lastReadingBefore(first.series(), step.source(), start, maxGap)),
            () ->
                lookUp(
                    step,
                    () ->
                        stored.firstReadingFrom(
                            first.series(), step.source(), step.target().windowEnd(start), maxGap)),
            SourceQuality.AS_READ));
    target.window();
    if (pending.size() >= batch) {
      flush(target);
    }
  }

  private void flush(final BackfillCounts.Target target) {
    if (pending.isEmpty()) {
      return;
    }
    if (repair) {
      final Repaired repaired = output.repair(pending);
      target.documents(
          repaired.written() + repaired.unchanged(), repaired.unchanged(), repaired.staleDeleted());
    } else {
      target.documents(pending.size(), output.write(pending), 0);
    }
    pending.clear();
  }

  private void progress(final BackfillCounts.Target target) {
    final Instant now = clock.instant();
    if (Duration.between(lastProgress, now).compareTo(progressEvery) >= 0) {
      lines.accept(counts.progressLine(target));
      lastProgress = now;
    }
  }

  private static NearReading lookUp(
      final BackfillPlan.Step step, final Supplier<NearReading> read) {
    try {
      return read.get();
    } catch (StoreUnavailableException e) {
      throw failedRead(step, e);
    }
  }

  private static boolean hasNext(
      final Iterator<StoredWindow> windows, final BackfillPlan.Step step) {
    try {
      return windows.hasNext();
    } catch (StoreUnavailableException | IllegalStateException e) {
      throw failedRead(step, e);
    }
  }

  private static StoredWindow next(
      final Iterator<StoredWindow> windows, final BackfillPlan.Step step) {
    try {
      return windows.next();
    } catch (StoreUnavailableException | IllegalStateException e) {
      throw failedRead(step, e);
    }
  }

  private static BackfillException failedRead(
      final BackfillPlan.Step step, final RuntimeException e) {
    return new BackfillException(
        step.target()
            + ": "
            + e.getMessage()
            + ". What was written stays: run backfill again once it is fixed",
        e);
  }
}
