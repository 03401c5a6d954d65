package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** How long a partition waited without a commit, from samples of commits and ends. */
class PartitionPausesTest {

  private static final TopicPartition INPUT = new TopicPartition("readings", 0);
  private static final TopicPartition REPARTITION = new TopicPartition("repartition", 0);
  private static final long SECOND = 1_000_000_000L;

  private final PartitionPauses pauses = new PartitionPauses();

  @Test
  void shouldMeasureTheLongestStretchAPartitionWaitedWithoutACommit() {
    pauses.sample(0, Map.of(INPUT, 100L), Map.of(INPUT, 150L));
    pauses.sample(SECOND, Map.of(INPUT, 150L), Map.of(INPUT, 200L));
    // a pause: records keep coming, nothing is committed for 3 s
    pauses.sample(2 * SECOND, Map.of(INPUT, 150L), Map.of(INPUT, 250L));
    pauses.sample(3 * SECOND, Map.of(INPUT, 150L), Map.of(INPUT, 300L));
    pauses.sample(4 * SECOND, Map.of(INPUT, 150L), Map.of(INPUT, 350L));
    pauses.sample(5 * SECOND, Map.of(INPUT, 350L), Map.of(INPUT, 400L));
    pauses.sample(6 * SECOND, Map.of(INPUT, 400L), Map.of(INPUT, 450L));

    assertThat(pauses.longest()).isEqualTo(Duration.ofSeconds(3));
    assertThat(pauses.longestOn()).isEqualTo(INPUT);
  }

  @Test
  void shouldNotCountAPartitionWithNothingWaitingOrOnlyATransactionMarker() {
    // the repartition topic ends with a commit marker past the group's commit: nothing waits
    pauses.sample(0, Map.of(REPARTITION, 41L, INPUT, 10L), Map.of(REPARTITION, 42L, INPUT, 10L));
    pauses.sample(
        5 * SECOND, Map.of(REPARTITION, 41L, INPUT, 10L), Map.of(REPARTITION, 42L, INPUT, 10L));

    assertThat(pauses.longest()).isZero();
    assertThat(pauses.longestOn()).isNull();
    assertThat(pauses.allMoving()).as("nothing waits, so nothing is held up").isTrue();
  }

  @Test
  void shouldSayEveryPartitionMovesOnlyOnceEachWaitingOneWasCommittedAgain() {
    pauses.sample(0, Map.of(INPUT, 100L, REPARTITION, 10L), Map.of(INPUT, 150L, REPARTITION, 20L));
    pauses.sample(
        SECOND, Map.of(INPUT, 150L, REPARTITION, 10L), Map.of(INPUT, 200L, REPARTITION, 30L));

    assertThat(pauses.allMoving()).as("the repartition topic waits, uncommitted").isFalse();

    pauses.sample(
        2 * SECOND, Map.of(INPUT, 150L, REPARTITION, 30L), Map.of(INPUT, 250L, REPARTITION, 31L));

    assertThat(pauses.allMoving()).isTrue();
    assertThat(pauses.longest())
        .as("the repartition topic, 0 s to 1 s")
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(pauses.partitions()).containsExactlyInAnyOrder(INPUT, REPARTITION);
  }
}
