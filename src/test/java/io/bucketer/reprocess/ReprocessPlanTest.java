package io.bucketer.reprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ReprocessPlanTest {

  private static final Instant FROM = Instant.parse("2026-11-26T06:00:00Z");
  private static final long AT = FROM.toEpochMilli();

  private static PartitionState partition(
      final int partition,
      final long logStart,
      final long end,
      final Long committed,
      final Long fromOffset,
      final Long fromTimestamp) {
    return new PartitionState(
        partition,
        logStart,
        end,
        committed == null ? OptionalLong.empty() : OptionalLong.of(committed),
        fromOffset == null ? OptionalLong.empty() : OptionalLong.of(fromOffset),
        fromTimestamp == null ? OptionalLong.empty() : OptionalLong.of(fromTimestamp));
  }

  @Test
  void shouldMoveBackToTheFirstRecordAtOrAfterTheInstantAndNeverForward() {
    final ReprocessPlan plan =
        ReprocessPlan.of(
            FROM,
            "in",
            List.of(
                partition(0, 0, 100, 100L, 40L, AT + 5), // back to 40
                partition(1, 0, 100, 30L, 40L, AT), // not read up to the instant: stays
                partition(2, 0, 100, 100L, null, null), // nothing at or after: the end
                partition(3, 0, 100, null, 10L, AT))); // nothing committed: left alone

    assertThat(plan.moves())
        .extracting(ReprocessPlan.Move::to)
        .containsExactly(40L, 30L, 100L, 10L);
    assertThat(plan.moving()).extracting(ReprocessPlan.Move::partition).containsExactly(0);
    assertThat(plan.recordsAgain()).isEqualTo(60);
    assertThat(plan.nothingCommitted()).isFalse();
  }

  @Test
  void shouldRefuseWhenRetentionDeletedRecordsThatMayBeInTheRange() {
    assertThatThrownBy(
            () -> ReprocessPlan.of(FROM, "in", List.of(partition(1, 500, 900, 900L, 500L, AT + 1))))
        .isInstanceOf(ReprocessRefusedException.class)
        .hasMessageContaining("the input topic in may no longer hold the records from " + FROM)
        .hasMessageContaining("partition 1 keeps them from 2026-11-26T06:00:00.001Z on only")
        .hasMessageContaining("retention.ms");
  }

  @Test
  void shouldGoAheadWhenWhatRetentionDeletedIsOlderThanTheInstant() {
    // The first record at or after the instant is past the log start, or at a log never shortened.
    final ReprocessPlan plan =
        ReprocessPlan.of(
            FROM,
            "in",
            List.of(
                partition(0, 500, 900, 900L, 600L, AT), partition(1, 0, 900, 900L, 0L, AT + 1)));

    assertThat(plan.moves()).extracting(ReprocessPlan.Move::to).containsExactly(600L, 0L);
  }

  @Test
  void shouldSayWhenTheGroupCommittedNothing() {
    assertThat(
            ReprocessPlan.of(FROM, "in", List.of(partition(0, 0, 10, null, 0L, AT)))
                .nothingCommitted())
        .isTrue();
  }
}
