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
