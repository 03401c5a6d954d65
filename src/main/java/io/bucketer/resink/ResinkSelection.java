package io.bucketer.resink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The buckets an operator asks to rebuild: of some granularities, and of windows that start within
 * {@code [from, to)}. Empty parts select everything.
 *
 * @param granularities the granularities to rebuild; empty: all of them
 * @param from the earliest window start to rebuild, included
 * @param to the window start from which nothing is rebuilt, excluded
 */
public record ResinkSelection(
    List<Granularity> granularities, Optional<Instant> from, Optional<Instant> to) {

  /** Every bucket of the topic. */
  public static final ResinkSelection ALL =
      new ResinkSelection(List.of(), Optional.empty(), Optional.empty());

  public ResinkSelection {
    granularities = List.copyOf(granularities);
    if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
      throw new IllegalArgumentException(
          "--from " + from.get() + " is not before --to " + to.get());
    }
  }

  /** True when the operator asked for {@code bucket}. */
  boolean selects(final ClosedBucket bucket) {
    // By size, as the settings compare granularities: 60s names 1m.
    if (!granularities.isEmpty()
        && granularities.stream()
            .noneMatch(g -> g.sizeMillis() == bucket.granularity().sizeMillis())) {
      return false;
    }
    final long start = bucket.windowStart();
    return from.map(f -> start >= f.toEpochMilli()).orElse(true)
        && to.map(t -> start < t.toEpochMilli()).orElse(true);
  }
}
