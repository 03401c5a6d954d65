package io.bucketer.resink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What becomes of each bucket read from the topic: written, or skipped and why. A bucket is written
 * when its granularity is configured (it has a collection), the operator selected it, and its
 * window has not passed its granularity's retention: MongoDB's TTL index would delete such a
 * document at once, so writing it would only cost the write. The topic keeps buckets of every
 * granularity as long as the longest retention ({@link io.bucketer.topics.BucketsTopicCleanup}), so
 * finer granularities' old windows are there, and skipped, as a matter of course.
 *
 * @param configured the granularities of the settings: the target's collections
 * @param retention how long the target keeps each granularity's documents
 * @param selection what the operator asked for
 * @param now the time the retention is counted back from: the start of the resink
 */
public record ResinkPlan(
    List<Granularity> configured, Retention retention, ResinkSelection selection, Instant now) {

  /** What becomes of one bucket. */
  public enum Verdict {
    WRITE,
    /** Its granularity is no longer configured: no collection to write it to. */
    NOT_CONFIGURED,
    /** Not of the granularities or window starts the operator asked for. */
    NOT_SELECTED,
    /** Its window is past its granularity's retention: MongoDB would delete it at once. */
    EXPIRED
  }

  public ResinkPlan {
    configured = List.copyOf(configured);
  }

  public Verdict of(final ClosedBucket bucket) {
    final Optional<Granularity> granularity =
        configured.stream().filter(g -> g.label().equals(bucket.granularity().label())).findFirst();
    if (granularity.isEmpty()) {
      return Verdict.NOT_CONFIGURED;
    }
    if (!selection.selects(bucket)) {
      return Verdict.NOT_SELECTED;
    }
    // A window that ends after now - retention is still kept (Retention.keptFrom).
    final boolean expired =
        retention
            .keptFrom(granularity.get(), now)
            .map(keptFrom -> bucket.windowEnd() <= keptFrom.toEpochMilli())
            .orElse(false);
    return expired ? Verdict.EXPIRED : Verdict.WRITE;
  }
}
