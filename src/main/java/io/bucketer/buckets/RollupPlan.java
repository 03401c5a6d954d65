package io.bucketer.buckets;

import java.util.List;
import java.util.Optional;

/**
 * Which granularity feeds which. A coarser bucket is rolled up from the closed buckets of the
 * coarsest finer granularity that divides it evenly (1h from 1m, 1d from 1h), so its state is
 * touched once per finer window instead of once per reading. A granularity that no finer one
 * divides (7m next to 1h, say) is aggregated from the readings themselves.
 */
public final class RollupPlan {

  private final List<Granularity> granularities;

  public RollupPlan(final List<Granularity> granularities) {
    this.granularities = granularities.stream().sorted().distinct().toList();
  }

  /** All granularities, finest first: the order in which windows must be closed. */
  public List<Granularity> granularities() {
    return granularities;
  }

  /** The granularity whose closed buckets feed {@code target}, or empty when readings feed it. */
  public Optional<Granularity> sourceOf(final Granularity target) {
    Granularity source = null;
    for (final Granularity finer : granularities) {
      if (finer.divides(target)) {
        source = finer;
      }
    }
    return Optional.ofNullable(source);
  }

  /** The granularities whose buckets are fed directly by readings. */
  public List<Granularity> fedByReadings() {
    return granularities.stream().filter(g -> sourceOf(g).isEmpty()).toList();
  }

  /** The granularities rolled up from closed buckets of {@code source}. */
  public List<Granularity> rolledUpFrom(final Granularity source) {
    return granularities.stream()
        .filter(g -> sourceOf(g).filter(source::equals).isPresent())
        .toList();
  }
}
