package io.bucketer.deadletters;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which dead letters a command takes: by reason, by the time of the dead-letter record (when it was
 * set aside; the original's for a letter of format 1), by partition and offset of the dead-letter
 * topic, and by partition and offset of the record's source. Every criterion must hold; an unset
 * one holds for every record. A dead letter whose headers name no source matches no source range
 * but {@link OffsetRange#ALL}.
 *
 * @param reasons the reasons to take; empty takes every reason
 * @param from the first instant taken, included
 * @param to the instant the range ends, excluded
 */
public record DeadLetterFilter(
    Set<String> reasons,
    Optional<Instant> from,
    Optional<Instant> to,
    OffsetRange partitions,
    OffsetRange offsets,
    OffsetRange sourcePartitions,
    OffsetRange sourceOffsets) {

  /** Every dead letter. */
  public static final DeadLetterFilter ALL =
      new DeadLetterFilter(
          Set.of(),
          Optional.empty(),
          Optional.empty(),
          OffsetRange.ALL,
          OffsetRange.ALL,
          OffsetRange.ALL,
          OffsetRange.ALL);

  public DeadLetterFilter {
    reasons = Set.copyOf(reasons);
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
      throw new IllegalArgumentException(
          "the time range ["
              + from.get()
              + ", "
              + to.get()
              + ") is empty: --from must be before --to");
    }
  }

  public boolean matches(final DeadLetter letter) {
    return (reasons.isEmpty() || reasons.contains(letter.reason()))
        && inTimeRange(letter.timestamp())
        && partitions.contains(letter.partition())
        && offsets.contains(letter.offset())
        && matchesSource(letter);
  }

  /** Whether the records of dead-letter partition {@code partition} can match at all. */
  public boolean takesPartition(final int partition) {
    return partitions.contains(partition);
  }

  private boolean inTimeRange(final long timestamp) {
    if (from.isEmpty() && to.isEmpty()) {
      return true;
    }
    // A record without a timestamp is in no time range.
    return timestamp >= 0
        && from.map(start -> timestamp >= start.toEpochMilli()).orElse(true)
        && to.map(end -> timestamp < end.toEpochMilli()).orElse(true);
  }

  private boolean matchesSource(final DeadLetter letter) {
    if (sourcePartitions.isAll() && sourceOffsets.isAll()) {
      return true;
    }
    return letter
        .source()
        .map(
            source ->
                sourcePartitions.contains(source.partition())
                    && sourceOffsets.contains(source.offset()))
        .orElse(false);
  }
}
