package io.bucketer.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * How long each partition a consumer group reads went without a commit while records waited on it,
 * from samples of the group's committed offsets and the partitions' end offsets: what an operator's
 * lag dashboard shows as a flat line. The longest such pause over a fault is what the fault cost
 * the processing: a rebalance that moves tasks, a restore, a departed member's partitions waiting
 * for its session to expire.
 *
 * <p>A partition waits when its end is more than one offset past the group's commit: one, because a
 * topic written in transactions (the repartition topic) ends with a commit marker that no commit
 * moves past until the next record. So a single waiting record of a plain topic goes unseen; at
 * live traffic, where a partition takes records every few milliseconds, that is no pause.
 */
final class PartitionPauses {

  /** Where a partition stands: its last commit seen, and since when it has been waiting. */
  private static final class Standing {
    long committed;
    long waitingSinceNanos;
    boolean waiting;
    boolean committedSince;

    Standing(final long committed) {
      this.committed = committed;
    }
  }

  private final Map<TopicPartition, Standing> partitions = new HashMap<>();
  private long longestNanos;
  private TopicPartition longestOn;

  /**
   * Takes one sample at {@code nowNanos}: the group's committed offsets and the partitions' ends.
   */
  void sample(
      final long nowNanos,
      final Map<TopicPartition, Long> committed,
      final Map<TopicPartition, Long> ends) {
    for (final Map.Entry<TopicPartition, Long> commit : committed.entrySet()) {
      final TopicPartition partition = commit.getKey();
      final long offset = commit.getValue();
      final Long end = ends.get(partition);
      Standing standing = partitions.get(partition);
      if (standing == null) {
        standing = new Standing(offset);
        partitions.put(partition, standing);
      } else if (offset > standing.committed) {
        standing.committed = offset;
        standing.committedSince = true;
        standing.waiting = false;
      }
      if (end == null || end - offset <= 1) {
        standing.waiting = false;
      } else if (!standing.waiting) {
        standing.waiting = true;
        standing.waitingSinceNanos = nowNanos;
      } else if (nowNanos - standing.waitingSinceNanos > longestNanos) {
        longestNanos = nowNanos - standing.waitingSinceNanos;
        longestOn = partition;
      }
    }
  }

  /** The longest a partition waited without a commit, over the samples so far. */
  Duration longest() {
    return Duration.ofNanos(longestNanos);
  }

  /** The partition that waited {@link #longest}; null if none waited across two samples. */
  TopicPartition longestOn() {
    return longestOn;
  }

  /**
   * Whether every partition sampled has, since its first sample, either been committed or nothing
   * waits on it: the group processes all of them again.
   */
  boolean allMoving() {
    return !partitions.isEmpty()
        && partitions.values().stream()
            .allMatch(standing -> standing.committedSince || !standing.waiting);
  }

  /** The partitions sampled. */
  Set<TopicPartition> partitions() {
    return partitions.keySet();
  }
}
