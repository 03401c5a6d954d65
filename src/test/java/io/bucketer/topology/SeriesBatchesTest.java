package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class SeriesBatchesTest {

  private static final SeriesKey A = new SeriesKey("a", "temperature");
  private static final SeriesKey B = new SeriesKey("b", null);

  private final List<String> handedOn = new ArrayList<>();
  private final BiConsumer<SeriesKey, ReadingBatch> ready =
      (series, batch) -> handedOn.add(series.sensorId() + ":" + times(batch));

  @Test
  void shouldHoldEachSeriesReadingsInOrderUntilDrainedThenHandThemOnInTheOrderTheSeriesFirstSent() {
    final SeriesBatches batches = new SeriesBatches(10, 100);

    batches.add(B, 1, 1.0, null, ready);
    batches.add(A, 5, 2.0, 60, ready);
    batches.add(B, 3, 3.0, null, ready);
    batches.add(B, 2, 4.0, null, ready);
    assertThat(handedOn).isEmpty();
    assertThat(batches.held()).isEqualTo(4);

    batches.drain(ready);

    assertThat(handedOn).containsExactly("b:[1, 3, 2]", "a:[5]");
    assertThat(batches.held()).isZero();
    batches.drain(ready);
    assertThat(handedOn).hasSize(2);
  }

  @Test
  void shouldHandOnASeriesBatchAloneOnceItIsFull() {
    final SeriesBatches batches = new SeriesBatches(3, 100);
    batches.add(A, 1, 1.0, null, ready);
    batches.add(B, 1, 1.0, null, ready);
    batches.add(A, 2, 1.0, null, ready);

    batches.add(A, 3, 1.0, null, ready);

    assertThat(handedOn).containsExactly("a:[1, 2, 3]");
    assertThat(batches.held()).isEqualTo(1);
    batches.add(A, 4, 1.0, null, ready);
    batches.drain(ready);
    assertThat(handedOn).containsExactly("a:[1, 2, 3]", "b:[1]", "a:[4]");
  }

  @Test
  void shouldHandOnEveryBatchOnceTheTaskHoldsTooManyReadings() {
    final SeriesBatches batches = new SeriesBatches(3, 4);
    batches.add(A, 1, 1.0, null, ready);
    batches.add(B, 1, 1.0, null, ready);
    batches.add(A, 2, 1.0, null, ready);

    batches.add(B, 2, 1.0, null, ready);

    assertThat(handedOn).containsExactly("a:[1, 2]", "b:[1, 2]");
    assertThat(batches.held()).isZero();
  }

  @Test
  void shouldForgetWhatItHeldWhenCleared() {
    final SeriesBatches batches = new SeriesBatches(3, 4);
    batches.add(A, 1, 1.0, null, ready);

    batches.clear();
    batches.drain(ready);

    assertThat(handedOn).isEmpty();
    assertThat(batches.held()).isZero();
  }

  @Test
  void shouldRefuseBoundsThatCannotHoldABatch() {
    assertThatThrownBy(() -> new SeriesBatches(0, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SeriesBatches(10, 9)).isInstanceOf(IllegalArgumentException.class);
  }

  private static List<Long> times(final ReadingBatch batch) {
    final List<Long> times = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      times.add(batch.timestamp(i));
    }
    return times;
  }
}
