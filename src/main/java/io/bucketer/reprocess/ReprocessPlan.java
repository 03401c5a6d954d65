package io.bucketer.reprocess;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

/**
 * Where a reprocessing from an instant moves each partition of the input topic: its committed
 * offset goes back to the earliest record at or after the instant, or to the partition's end when
 * no record is. Never forward: a partition whose processor has not yet read up to the instant would
 * skip records it never read. A partition with nothing committed is left alone, as the processor
 * has read nothing of it to read again.
 */
public final class ReprocessPlan {

  /** One partition's committed offset now, and the offset it moves to. */
  public record Move(int partition, OptionalLong committed, long to) {

    public boolean moves() {
      return committed.isPresent() && to < committed.getAsLong();
    }

    /** The offsets between where it moves to and where it was: the records read again. */
    public long recordsAgain() {
      return moves() ? committed.getAsLong() - to : 0;
    }
  }

  private final List<Move> moves;

  private ReprocessPlan(final List<Move> moves) {
    this.moves = List.copyOf(moves);
  }

  /**
   * @throws ReprocessRefusedException when a partition that retention has shortened starts after
   *     {@code from}: records at or after {@code from} may have been deleted, and reading from its
   *     start would leave their windows as the bug wrote them
   */
  public static ReprocessPlan of(
      final Instant from, final String topic, final List<PartitionState> partitions) {
    for (final PartitionState partition : partitions) {
      final boolean startsAtTheLogStart =
          partition.fromOffset().isPresent()
              && partition.fromOffset().getAsLong() == partition.logStart();
      if (partition.logStart() > 0
          && startsAtTheLogStart
          && partition.fromTimestamp().getAsLong() > from.toEpochMilli()) {
        final Instant kept = Instant.ofEpochMilli(partition.fromTimestamp().getAsLong());
        throw new ReprocessRefusedException(
            String.format(
                "the input topic %s may no longer hold the records from %s: partition %d keeps"
                    + " them from %s on only, its retention (retention.ms) deleted the offsets"
                    + " before %,d; choose --from %s or later — see docs/reprocessing.md",
                topic, from, partition.partition(), kept, partition.logStart(), kept));
      }
    }
    return new ReprocessPlan(partitions.stream().map(ReprocessPlan::move).toList());
  }

  private static Move move(final PartitionState partition) {
    final long atFrom = partition.fromOffset().orElse(partition.end());
    final long to =
        partition.committed().isPresent()
            ? Math.min(partition.committed().getAsLong(), atFrom)
            : atFrom;
    return new Move(partition.partition(), partition.committed(), to);
  }

  public List<Move> moves() {
    return moves;
  }

  /** The partitions whose committed offset goes back. */
  public List<Move> moving() {
    return moves.stream().filter(Move::moves).toList();
  }

  public long recordsAgain() {
    return moves.stream().mapToLong(Move::recordsAgain).sum();
  }

  /** True when the group committed nothing on the topic: it never ran with this id. */
  public boolean nothingCommitted() {
    return moves.stream().allMatch(move -> move.committed().isEmpty());
  }
}
