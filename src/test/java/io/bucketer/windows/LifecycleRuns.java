package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Buckets as the real emit path closes them: readings sent through a {@link WindowLifecycle} over
 * an in-memory store, then every series closed by the wall clock. For tests outside this package
 * that need documents the processor would write, and for this package's oracle tests, which check
 * what it emits against an independent computation.
 */
public final class LifecycleRuns {

  private LifecycleRuns() {}

  /**
   * Every bucket the lifecycle emits for {@code readings}, sent series by series in the order
   * given, each on time.
   *
   * @param clock the wall clock the store is restored at, before the first reading
   */
  public static List<ClosedBucket> emitted(
      final List<Granularity> granularities,
      final BucketLayout layout,
      final TimeWeightings weightings,
      final Map<SeriesKey, List<Measurement>> readings,
      final long clock) {
    return emitted(
        settings(granularities, layout, weightings, SketchAccuracies.DEFAULT),
        readings,
        clock,
        clock + Duration.ofDays(2).toMillis());
  }

  /**
   * Every bucket a lifecycle of {@code settings} emits for {@code readings}, sent series by series
   * in the order given, each on time, then every series closed at the wall clock {@code closedAt}.
   *
   * @param clock the wall clock the store is restored at and the readings are sent at
   */
  static List<ClosedBucket> emitted(
      final WindowLifecycle.Settings settings,
      final Map<SeriesKey, List<Measurement>> readings,
      final long clock,
      final long closedAt) {
    final WindowLifecycle lifecycle = restored(settings, clock);
    final List<ClosedBucket> emitted = new ArrayList<>();
    readings.forEach(
        (series, sent) -> {
          for (final Measurement reading : sent) {
            assertThat(lifecycle.accept(series, reading, null, clock, emitted::add))
                .isEqualTo(WindowLifecycle.Outcome.ON_TIME);
          }
        });
    lifecycle.closeIdleSeries(closedAt, emitted::add);
    return emitted;
  }

  /**
   * The settings of these runs: a grace of 10 s, series idle after 30 s, readings up to 2 h late
   * merged, keep-last; the rest is what a test checks.
   */
  static WindowLifecycle.Settings settings(
      final List<Granularity> granularities,
      final BucketLayout layout,
      final TimeWeightings weightings,
      final SketchAccuracies accuracies) {
    return new WindowLifecycle.Settings(
        granularities,
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofHours(2),
        layout,
        DuplicateTimestamps.KEEP_LAST,
        new WindowComputations(weightings, accuracies, ExpectedIntervals.NONE));
  }

  /** A lifecycle of {@code settings} over an empty in-memory store, restored at {@code clock}. */
  static WindowLifecycle restored(final WindowLifecycle.Settings settings, final long clock) {
    final WindowLifecycle lifecycle =
        new WindowLifecycle(settings, new InMemoryWindowStore(), delta -> {});
    lifecycle.restore(clock);
    return lifecycle;
  }
}
