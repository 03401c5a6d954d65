package io.bucketer.rescale;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

/**
 * Where both deployments of a rescale stand on the input, and whether the replaced one may stop:
 * once the end of its late readings has passed and it has read, on every input partition, every
 * record written before it. Plain code over what the cluster said.
 *
 * @param handover the first instant whose readings are the new layout's
 * @param lateUntil the end of the replaced deployment's late readings
 * @param partitions each input partition's offsets
 */
public record HandoverProgress(Instant handover, Instant lateUntil, List<Partition> partitions) {

  /**
   * One input partition.
   *
   * @param end its end offset
   * @param firstAfterLateUntil the first record written at or after {@code lateUntil}, if any yet
   * @param replacedCommitted the replaced deployment's committed offset, if any
   * @param newCommitted the new layout's, if any
   */
  public record Partition(
      int partition,
      long end,
      OptionalLong firstAfterLateUntil,
      OptionalLong replacedCommitted,
      OptionalLong newCommitted) {

    /** Whether the replaced deployment has read every record it takes a reading of here. */
    boolean replacedIsDone(final boolean lateReadingsEnded) {
      final long mustReach =
          firstAfterLateUntil.isPresent() ? firstAfterLateUntil.getAsLong() : end;
      return lateReadingsEnded && replacedCommitted.orElse(0) >= mustReach;
    }

    long replacedLag() {
      return Math.max(0, end - replacedCommitted.orElse(0));
    }

    long newLag() {
      return Math.max(0, end - newCommitted.orElse(0));
    }
  }

  /** Whether the replaced deployment may stop now. */
  public boolean replacedMayStop(final Instant now) {
    final boolean ended = !now.isBefore(lateUntil);
    return partitions.stream().allMatch(partition -> partition.replacedIsDone(ended));
  }

  /** The partitions the replaced deployment still has to read up to the end of its readings. */
  public long partitionsLeft(final Instant now) {
    final boolean ended = !now.isBefore(lateUntil);
    return partitions.stream().filter(partition -> !partition.replacedIsDone(ended)).count();
  }

  public long replacedLag() {
    return partitions.stream().mapToLong(Partition::replacedLag).sum();
  }

  public long newLag() {
    return partitions.stream().mapToLong(Partition::newLag).sum();
  }
}
