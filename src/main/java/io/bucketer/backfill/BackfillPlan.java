package io.bucketer.backfill;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a backfill builds: for each granularity asked for, finest first, the granularity it is
 * rolled up from (as the stream rolls it up, {@link RollupPlan}) and the window starts it builds. A
 * target that is another's source (5m for 15m, both asked for) is a chain: it feeds that target the
 * windows it builds ({@link Backfill}), and starts where that target starts, so that every window
 * built from it is whole whatever {@code --from} is.
 *
 * <p><b>Until.</b> By default a backfill stops at the windows no late reading can change any more:
 * those that end by {@code now - grace - lateness horizon}. A later {@code --until} is taken up to
 * the windows that have closed ({@code now - grace}), never into a window still open; the windows
 * within the horizon may still take late readings into their finer documents, which a backfill run
 * again later picks up (their revisions then add up to more, {@link RolledUpWindow}). Both ends are
 * aligned down to the target's windows, so that every window built is whole.
 *
 * @param steps one per target, finest first
 * @param notes what the plan changed from what was asked, for the operator
 */
public record BackfillPlan(List<Step> steps, List<String> notes) {

  /**
   * One target's backfill.
   *
   * @param target the granularity built
   * @param source the granularity its windows are rolled up from, whose documents are read
   * @param from the first window start built (aligned)
   * @param until the window start from which nothing is built (aligned, excluded)
   */
  public record Step(Granularity target, Granularity source, Instant from, Instant until) {

    /** True when no window lies in {@code [from, until)}. */
    public boolean isEmpty() {
      return !from.isBefore(until);
    }
  }

  public BackfillPlan {
    steps = List.copyOf(steps);
    notes = List.copyOf(notes);
  }

  /** What the plan is made from: the settings' side and the operator's. */
  public record Request(
      List<Granularity> configured,
      BucketLayout layout,
      Retention retention,
      Duration grace,
      Duration latenessHorizon,
      List<Granularity> targets,
      Instant from,
      Optional<Instant> until) {}

  /**
   * The plan for {@code request} at {@code now}.
   *
   * @throws IllegalArgumentException naming in one line a target that cannot be backfilled: not
   *     configured, fed by readings, or keeping raw measurements
   */
  public static BackfillPlan of(final Request request, final Instant now) {
    if (request.targets().isEmpty()) {
      throw new IllegalArgumentException("name at least one granularity to backfill");
    }
    final RollupPlan rollup = new RollupPlan(request.configured());
    final TreeSet<Granularity> targets = new TreeSet<>();
    for (final Granularity asked : request.targets()) {
      targets.add(configured(asked, request.configured()));
    }
    final List<String> notes = new ArrayList<>();
    final Map<Granularity, Granularity> sources = new LinkedHashMap<>();
    for (final Granularity target : targets) {
      final Granularity source =
          rollup
              .sourceOf(target)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          target
                              + " is fed by readings, not rolled up from a finer granularity of "
                              + request.configured()
                              + ": backfill builds only granularities rolled up from finer"
                              + " documents"));
      if (request.layout().keepMeasurements().contains(target)) {
        throw new IllegalArgumentException(
            target
                + " keeps raw measurements (bucket.measurements.granularities): backfill builds"
                + " summary documents only");
      }
      sources.put(target, source);
    }
    final Map<Granularity, Instant> froms = chainedFroms(sources, request, now, notes);
    final List<Step> steps = new ArrayList<>();
    for (final Granularity target : targets) {
      steps.add(
          new Step(
              target, sources.get(target), froms.get(target), until(target, request, now, notes)));
    }
    return new BackfillPlan(steps, notes);
  }

  private static Granularity configured(
      final Granularity asked, final List<Granularity> configured) {
    // By size, as the settings compare granularities: 60s names 1m.
    return configured.stream()
        .filter(g -> g.sizeMillis() == asked.sizeMillis())
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    asked
                        + " is not one of the granularities "
                        + configured
                        + ": add it to granularities, restart run, then backfill it"));
  }

  /**
   * Each target's first window: the one {@code --from} falls in, raised to what the target's
   * retention keeps; then, for a chain (a target that is another target's source), lowered to the
   * start of the first window its consumer builds, so that every window built from it is whole.
   * {@code sources} is finest first. A consumer never starts before its source's retention: it is
   * raised to the first of its windows that starts within it.
   */
  private static Map<Granularity, Instant> chainedFroms(
      final Map<Granularity, Granularity> sources,
      final Request request,
      final Instant now,
      final List<String> notes) {
    final Map<Granularity, Instant> kept = new HashMap<>();
    final Map<Granularity, Instant> froms = new LinkedHashMap<>();
    sources.forEach(
        (target, source) -> {
          final Optional<Instant> own = keptFrom(target, request, now);
          // A chained target's source is built by this backfill from its own retention's start:
          // a window before that would be built from part of its source windows.
          final Optional<Instant> chained =
              Optional.ofNullable(kept.get(source)).map(floor -> alignedUp(target, floor));
          final Instant asked = aligned(target, request.from());
          Instant from = asked;
          if (own.isPresent() && own.get().isAfter(from)) {
            from = own.get();
          }
          if (chained.isPresent() && chained.get().isAfter(from)) {
            from = chained.get();
            notes.add(
                String.format(
                    "%s from %s: its first window whose %s windows are all kept (retention)",
                    target, from, source));
          } else if (from.isAfter(asked)) {
            // A window that ends before the retention's start would be deleted by the TTL index.
            notes.add(
                String.format(
                    "%s from %s: its documents are kept %s (retention), earlier ones would expire"
                        + " at once",
                    target,
                    from,
                    request
                        .retention()
                        .of(target)
                        .map(d -> TimeSpans.format(d.toMillis()))
                        .orElse("")));
          }
          // The later of the two: what a target built from this one can start from.
          Stream.of(own, chained)
              .flatMap(Optional::stream)
              .max(Comparator.naturalOrder())
              .ifPresent(floor -> kept.put(target, floor));
          froms.put(target, from);
        });
    final List<Granularity> coarsestFirst = new ArrayList<>(sources.keySet());
    Collections.reverse(coarsestFirst);
    for (final Granularity consumer : coarsestFirst) {
      final Granularity source = sources.get(consumer);
      if (froms.containsKey(source) && froms.get(consumer).isBefore(froms.get(source))) {
        froms.put(source, froms.get(consumer));
        notes.add(
            String.format(
                "%s from %s: the first %s window built from it starts there, and is built whole",
                source, froms.get(consumer), consumer));
      }
    }
    return froms;
  }

  /** The first window of {@code target} its retention keeps, when it keeps a limited span. */
  private static Optional<Instant> keptFrom(
      final Granularity target, final Request request, final Instant now) {
    return request.retention().keptFrom(target, now).map(keptFrom -> aligned(target, keptFrom));
  }

  private static Instant until(
      final Granularity target,
      final Request request,
      final Instant now,
      final List<String> notes) {
    final Instant settled =
        aligned(target, now.minus(request.grace()).minus(request.latenessHorizon()));
    if (request.until().isEmpty()) {
      return settled;
    }
    final Instant closed = aligned(target, now.minus(request.grace()));
    final Instant asked = aligned(target, request.until().get());
    if (asked.isAfter(closed)) {
      notes.add(
          String.format(
              "%s until %s: later windows have not closed yet (now - grace)", target, closed));
      return closed;
    }
    if (asked.isAfter(settled)) {
      notes.add(
          String.format(
              "%s windows from %s may still take late readings (lateness horizon): run backfill"
                  + " again once they are settled to pick those up",
              target, settled));
    }
    return asked;
  }

  private static Instant aligned(final Granularity granularity, final Instant instant) {
    return Instant.ofEpochMilli(granularity.windowStart(instant.toEpochMilli()));
  }

  /**
   * The start of the first window of {@code granularity} that starts at or after {@code instant}.
   */
  private static Instant alignedUp(final Granularity granularity, final Instant instant) {
    final Instant down = aligned(granularity, instant);
    return down.equals(instant)
        ? down
        : Instant.ofEpochMilli(granularity.windowEnd(down.toEpochMilli()));
  }
}
