package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When the batches of a task's readings are gathered by series, and when written as they come. */
class SeriesRepeatsTest {

  private final SeriesRepeats repeats = new SeriesRepeats();

  @Test
  void shouldStartGatheringAndKeepAtItWhileACommitSaysTooLittle() {
    assertThat(repeats.gathering()).isTrue();

    drainAfter(SeriesRepeats.READINGS_TO_JUDGE - 1, 0);

    assertThat(repeats.gathering()).isTrue();
  }

  @Test
  void shouldWriteAsTheReadingsComeOnceACommitsReadingsSeldomRepeatASeries() {
    final int readings = 1_000;
    drainAfter(readings, readings / SeriesRepeats.REPEATS_WORTH_GATHERING - 1);

    assertThat(repeats.gathering()).isFalse();
  }

  @Test
  void shouldKeepGatheringWhileEnoughReadingsRepeatASeries() {
    final int readings = 1_000;
    for (int commit = 0; commit < 3; commit++) {
      drainAfter(readings, readings / SeriesRepeats.REPEATS_WORTH_GATHERING);
      assertThat(repeats.gathering()).isTrue();
    }
  }

  @Test
  void shouldGatherOneCommitAgainAfterSoManyWrittenToLook() {
    drainAfter(1_000, 0);
    for (int written = 1; written < SeriesRepeats.WRITTEN_DRAINS; written++) {
      repeats.batchesDrained();
      assertThat(repeats.gathering()).as("after %d written", written).isFalse();
    }

    repeats.batchesDrained();
    assertThat(repeats.gathering()).isTrue();

    drainAfter(1_000, 600); // the fleet turned into a backlog
    assertThat(repeats.gathering()).isTrue();
  }

  @Test
  void shouldStartOverGatheringWhenCleared() {
    drainAfter(1_000, 0);

    repeats.clear();

    assertThat(repeats.gathering()).isTrue();
    drainAfter(SeriesRepeats.READINGS_TO_JUDGE - 1, 0);
    assertThat(repeats.gathering()).isTrue();
  }

  private void drainAfter(final int readings, final int repeated) {
    for (int i = 0; i < readings; i++) {
      repeats.reading(i < repeated);
    }
    repeats.batchesDrained();
  }
}
