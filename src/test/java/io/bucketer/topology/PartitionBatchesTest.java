package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class PartitionBatchesTest {

  private static final int PARTITIONS = 3;

  /** Two series on one partition, one on another. */
  private static final SeriesKey A = seriesOn(0, 0);

  private static final SeriesKey B = seriesOn(0, 1);
  private static final SeriesKey C = seriesOn(2, 0);

  private final List<String> handedOn = new ArrayList<>();
  private final Consumer<PartitionBatch> ready = batch -> handedOn.add(describe(batch));

  @Test
  void shouldHoldEachPartitionsReadingsUntilDrainedThenHandOnOneBatchPerPartition() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 10, 100);

    batches.add(B, 1, 1.0, null, ready);
    batches.add(C, 7, 5.0, null, ready);
    batches.add(A, 5, 2.0, 60, ready);
    batches.add(B, 3, 3.0, null, ready);
    batches.add(B, 2, 4.0, null, ready);
    assertThat(handedOn).isEmpty();
    assertThat(batches.held()).isEqualTo(5);

    batches.drain(ready);

    assertThat(handedOn)
        .containsExactly(
            "0: " + B.sensorId() + "[1, 3, 2] " + A.sensorId() + "[5]",
            "2: " + C.sensorId() + "[7]");
    assertThat(batches.held()).isZero();
    batches.drain(ready);
    assertThat(handedOn).hasSize(2);
  }

  @Test
  void shouldHandOnAPartitionsBatchAloneOnceItIsFull() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 3, 100);
    batches.add(A, 1, 1.0, null, ready);
    batches.add(C, 1, 1.0, null, ready);
    batches.add(B, 2, 1.0, null, ready);

    batches.add(A, 3, 1.0, null, ready);

    assertThat(handedOn).containsExactly("0: " + A.sensorId() + "[1, 3] " + B.sensorId() + "[2]");
    assertThat(batches.held()).isEqualTo(1);
    batches.add(A, 4, 1.0, null, ready);
    batches.drain(ready);
    assertThat(handedOn)
        .containsExactly(
            "0: " + A.sensorId() + "[1, 3] " + B.sensorId() + "[2]",
            "0: " + A.sensorId() + "[4]",
            "2: " + C.sensorId() + "[1]");
  }

  @Test
  void shouldHandOnEveryBatchOnceTheTaskHoldsTooManyReadings() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 3, 4);
    batches.add(A, 1, 1.0, null, ready);
    batches.add(C, 1, 1.0, null, ready);
    batches.add(C, 2, 1.0, null, ready);

    batches.add(A, 2, 1.0, null, ready);

    assertThat(handedOn)
        .containsExactly("0: " + A.sensorId() + "[1, 2]", "2: " + C.sensorId() + "[1, 2]");
    assertThat(batches.held()).isZero();
  }

  @Test
  void shouldGatherASeriesAfreshInTheBatchAfterADrainOrAClear() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 10, 100);
    batches.add(A, 1, 1.0, null, ready);
    batches.add(C, 1, 1.0, null, ready);
    batches.drain(ready);
    batches.add(C, 2, 1.0, null, ready);
    batches.clear();

    batches.add(A, 3, 1.0, null, ready);
    batches.add(C, 3, 1.0, null, ready);
    batches.add(A, 4, 1.0, null, ready);
    batches.drain(ready);

    assertThat(handedOn)
        .containsExactly(
            "0: " + A.sensorId() + "[1]",
            "2: " + C.sensorId() + "[1]",
            "0: " + A.sensorId() + "[3, 4]",
            "2: " + C.sensorId() + "[3]");
    assertThat(batches.held()).isZero();
  }

  @Test
  void shouldForgetWhatItHeldWhenCleared() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 3, 4);
    batches.add(A, 1, 1.0, null, ready);

    batches.clear();
    batches.drain(ready);

    assertThat(handedOn).isEmpty();
    assertThat(batches.held()).isZero();
  }

  @Test
  void shouldWriteEachReadingAsItComesOnceACommitsReadingsDidNotRepeatTheirSeries() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 10_000, 10_000);
    oneReadingOfEach(batches, SeriesRepeats.READINGS_TO_JUDGE);
    assertThat(batches.gathering()).isFalse();

    batches.add(B, 1, 1.0, null, ready);
    batches.add(C, 7, 5.0, null, ready);
    batches.add(A, 5, 2.0, 60, ready);
    batches.add(B, 3, 3.0, null, ready);
    assertThat(batches.held()).isEqualTo(4);
    batches.drain(ready);

    assertThat(handedOn)
        .containsExactly(
            "0: " + B.sensorId() + "[1] " + A.sensorId() + "[5] " + B.sensorId() + "[3]",
            "2: " + C.sensorId() + "[7]");
    assertThat(batches.held()).isZero();
  }

  @Test
  void shouldBoundWrittenBatchesAsGatheredOnes() {
    final PartitionBatches full = new PartitionBatches(PARTITIONS, 2, 10_000);
    oneReadingOfEach(full, SeriesRepeats.READINGS_TO_JUDGE);
    full.add(A, 1, 1.0, null, ready);
    full.add(C, 1, 1.0, null, ready);
    full.add(B, 2, 1.0, null, ready);
    assertThat(handedOn).containsExactly("0: " + A.sensorId() + "[1] " + B.sensorId() + "[2]");
    assertThat(full.held()).isEqualTo(1);

    handedOn.clear();
    final PartitionBatches many = new PartitionBatches(PARTITIONS, 300, 300);
    oneReadingOfEach(many, SeriesRepeats.READINGS_TO_JUDGE);
    for (int i = 0; i < 299; i++) {
      many.add(i % 2 == 0 ? A : C, i, 1.0, null, ready);
    }
    assertThat(handedOn).isEmpty();
    many.add(B, 1_000, 1.0, null, ready);
    assertThat(many.held()).isZero();
    assertThat(handedOn).hasSize(2);
  }

  @Test
  void shouldGatherAgainAfterSoManyWrittenCommitsAndKeepAtItWhileSeriesRepeat() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 10_000, 10_000);
    oneReadingOfEach(batches, SeriesRepeats.READINGS_TO_JUDGE);
    for (int written = 0; written < SeriesRepeats.WRITTEN_DRAINS; written++) {
      assertThat(batches.gathering()).isFalse();
      batches.add(A, written, 1.0, null, ready);
      batches.drain(ready);
    }
    assertThat(batches.gathering()).isTrue();

    handedOn.clear();
    for (int i = 0; i < SeriesRepeats.READINGS_TO_JUDGE; i++) {
      batches.add(i % 2 == 0 ? A : B, i, 1.0, null, ready);
    }
    batches.drain(ready);

    assertThat(handedOn).hasSize(1);
    assertThat(handedOn.get(0))
        .startsWith("0: " + A.sensorId() + "[0, 2, 4, ")
        .contains(" " + B.sensorId() + "[1, 3, 5, ");
    assertThat(batches.gathering()).isTrue();
  }

  @Test
  void shouldStartOverGatheringWhenCleared() {
    final PartitionBatches batches = new PartitionBatches(PARTITIONS, 10_000, 10_000);
    oneReadingOfEach(batches, SeriesRepeats.READINGS_TO_JUDGE);
    batches.add(A, 1, 1.0, null, ready);

    batches.clear();

    assertThat(batches.gathering()).isTrue();
    assertThat(batches.held()).isZero();
    batches.drain(ready);
    assertThat(handedOn).isEmpty();
  }

  /** One reading of each of {@code series} series, then a drain, whose batches are dropped. */
  private static void oneReadingOfEach(final PartitionBatches batches, final int series) {
    for (int n = 0; n < series; n++) {
      batches.add(new SeriesKey("live-" + n, null), n, 1.0, null, batch -> {});
    }
    batches.drain(batch -> {});
  }

  @Test
  void shouldRefuseBoundsThatCannotHoldABatch() {
    assertThatThrownBy(() -> new PartitionBatches(0, 10, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PartitionBatches(3, 0, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PartitionBatches(3, 10, 9))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * The {@code skip}-th series (by sensor number) that the partitioner puts on {@code partition}.
   */
  private static SeriesKey seriesOn(final int partition, final int skip) {
    int found = 0;
    for (int n = 0; ; n++) {
      final SeriesKey series = new SeriesKey("sensor-" + n, "temperature");
      if (SeriesPartitioner.partitionOf(series, PARTITIONS) == partition && found++ == skip) {
        return series;
      }
    }
  }

  private static String describe(final PartitionBatch batch) {
    final StringBuilder text = new StringBuilder().append(batch.partition()).append(':');
    batch.forEach(
        (series, readings) -> {
          final List<Long> times = new ArrayList<>();
          for (int i = 0; i < readings.size(); i++) {
            times.add(readings.timestamp(i));
          }
          text.append(' ').append(series.sensorId()).append(times);
        });
    return text.toString();
  }
}
