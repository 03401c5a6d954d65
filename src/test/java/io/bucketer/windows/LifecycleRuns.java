package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeightings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Buckets as the real emit path closes them: readings sent on time through a {@link
 * WindowLifecycle} over an in-memory store, then every series closed by the wall clock, for tests
 * outside this package that need documents the processor would write.
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
    final WindowLifecycle lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                granularities,
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofHours(2),
                layout,
                DuplicateTimestamps.KEEP_LAST,
                weightings),
            new InMemoryWindowStore(),
            delta -> {});
    lifecycle.restore(clock);
    final List<ClosedBucket> emitted = new ArrayList<>();
    readings.forEach(
        (series, sent) -> {
          for (final Measurement reading : sent) {
            assertThat(lifecycle.accept(series, reading, null, clock, emitted::add))
                .isEqualTo(WindowLifecycle.Outcome.ON_TIME);
          }
        });
    lifecycle.closeIdleSeries(clock + Duration.ofDays(2).toMillis(), emitted::add);
    return emitted;
  }
}
