package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeadLetterFilterTest {

  private static final Instant NINE = Instant.parse("2025-06-01T09:00:00Z");

  private final DeadLetter missingField =
      DeadLetters.rejected(0, 10, NINE, "missing-field", 2, 500, "{}");
  private final DeadLetter notANumber =
      DeadLetters.rejected(1, 20, NINE.plusSeconds(3600), "not-a-number", 0, 700, "{}");
  private final List<DeadLetter> both = List.of(missingField, notANumber);

  @Test
  void shouldTakeEveryDeadLetterWithoutCriteria() {
    assertThat(both).allMatch(DeadLetterFilter.ALL::matches);
  }

  @Test
  void shouldTakeOnlyTheReasonsNamed() {
    assertThat(both)
        .filteredOn(filter(Set.of("not-a-number", "malformed-json"))::matches)
        .containsExactly(notANumber);
  }

  @Test
  void shouldTakeTheTimeRangeFromIncludedToExcluded() {
    final DeadLetterFilter nineOClock =
        new DeadLetterFilter(
            Set.of(),
            Optional.of(NINE),
            Optional.of(NINE.plusSeconds(3600)),
            OffsetRange.ALL,
            OffsetRange.ALL,
            OffsetRange.ALL,
            OffsetRange.ALL);

    assertThat(both).filteredOn(nineOClock::matches).containsExactly(missingField);
  }

  @Test
  void shouldLeaveARecordWithoutTimestampOutOfAnyTimeRange() {
    final DeadLetter untimed = new DeadLetter("dlq", 0, 1, -1, null, null, missingField.headers());
    final DeadLetterFilter fromEpoch =
        new DeadLetterFilter(
            Set.of(),
            Optional.of(Instant.EPOCH),
            Optional.empty(),
            OffsetRange.ALL,
            OffsetRange.ALL,
            OffsetRange.ALL,
            OffsetRange.ALL);

    assertThat(fromEpoch.matches(untimed)).isFalse();
    assertThat(DeadLetterFilter.ALL.matches(untimed)).isTrue();
  }

  @Test
  void shouldTakeTheDeadLetterTopicsPartitionsAndOffsets() {
    final DeadLetterFilter partitionOne = ranges("1", "0-", "", "");
    final DeadLetterFilter offsetsUpToTen = ranges("", "-10", "", "");

    assertThat(both).filteredOn(partitionOne::matches).containsExactly(notANumber);
    assertThat(both).filteredOn(offsetsUpToTen::matches).containsExactly(missingField);
    assertThat(partitionOne.takesPartition(0)).isFalse();
    assertThat(partitionOne.takesPartition(1)).isTrue();
  }

  @Test
  void shouldTakeTheSourcesPartitionsAndOffsets() {
    final DeadLetterFilter sourcePartitionTwo = ranges("", "", "2", "");
    final DeadLetterFilter sourceOffsetsFrom600 = ranges("", "", "", "600-");

    assertThat(both).filteredOn(sourcePartitionTwo::matches).containsExactly(missingField);
    assertThat(both).filteredOn(sourceOffsetsFrom600::matches).containsExactly(notANumber);
  }

  @Test
  void shouldLeaveADeadLetterWithoutSourceOutOfAnySourceRange() {
    final DeadLetter sourceless =
        new DeadLetter(
            "dlq",
            0,
            1,
            0,
            null,
            null,
            new org.apache.kafka.common.header.internals.RecordHeaders());

    assertThat(ranges("", "", "0-5", "").matches(sourceless)).isFalse();
    assertThat(DeadLetterFilter.ALL.matches(sourceless)).isTrue();
  }

  @Test
  void shouldRefuseAnEmptyTimeRange() {
    assertThatThrownBy(
            () ->
                new DeadLetterFilter(
                    Set.of(),
                    Optional.of(NINE),
                    Optional.of(NINE),
                    OffsetRange.ALL,
                    OffsetRange.ALL,
                    OffsetRange.ALL,
                    OffsetRange.ALL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--from must be before --to");
  }

  private static DeadLetterFilter filter(final Set<String> reasons) {
    return new DeadLetterFilter(
        reasons,
        Optional.empty(),
        Optional.empty(),
        OffsetRange.ALL,
        OffsetRange.ALL,
        OffsetRange.ALL,
        OffsetRange.ALL);
  }

  /** Ranges as an operator writes them; empty: all. */
  private static DeadLetterFilter ranges(
      final String partitions,
      final String offsets,
      final String sourcePartitions,
      final String sourceOffsets) {
    return new DeadLetterFilter(
        Set.of(),
        Optional.empty(),
        Optional.empty(),
        range(partitions),
        range(offsets),
        range(sourcePartitions),
        range(sourceOffsets));
  }

  private static OffsetRange range(final String text) {
    return text.isEmpty() ? OffsetRange.ALL : OffsetRange.parse(text);
  }
}
