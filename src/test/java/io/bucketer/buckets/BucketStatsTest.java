package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BucketStatsTest {

  @Test
  void shouldKeepRunningSumsOfReadings() {
    final BucketStats stats =
        BucketStats.of(new Measurement(2_000, 4.0), null)
            .add(new Measurement(1_000, -1.5), null)
            .add(new Measurement(3_000, 10.0), null);

    assertThat(stats.count()).isEqualTo(3);
    assertThat(stats.sum()).isEqualTo(12.5);
    assertThat(stats.min()).isEqualTo(-1.5);
    assertThat(stats.max()).isEqualTo(10.0);
    assertThat(stats.firstTimestamp()).isEqualTo(1_000);
    assertThat(stats.lastTimestamp()).isEqualTo(3_000);
    assertThat(stats.average()).isCloseTo(12.5 / 3, within(1e-12));
  }

  @Test
  void shouldMergeLikeAddingEveryReading() {
    final BucketStats left =
        BucketStats.of(new Measurement(1_000, 1.0), null).add(new Measurement(2_000, 2.0), null);
    final BucketStats right =
        BucketStats.of(new Measurement(5_000, 7.0), null).add(new Measurement(4_000, -3.0), null);

    final BucketStats merged = left.merge(right);
    final BucketStats oneByOne =
        left.add(new Measurement(5_000, 7.0), null).add(new Measurement(4_000, -3.0), null);

    assertThat(merged).isEqualTo(oneByOne);
    assertThat(right.merge(left)).isEqualTo(merged);
  }

  @Test
  void shouldKeepTheUtcOffsetOfTheLatestReadingThatCarriedOne() {
    final BucketStats beforeDstChange = BucketStats.of(new Measurement(1_000, 1.0), 60);
    final BucketStats afterDstChange = beforeDstChange.add(new Measurement(2_000, 1.0), 120);
    final BucketStats withoutOffset = afterDstChange.add(new Measurement(3_000, 1.0), null);
    final BucketStats olderReading = afterDstChange.add(new Measurement(500, 1.0), 0);

    assertThat(afterDstChange.utcOffsetMinutes()).isEqualTo(120);
    assertThat(withoutOffset.utcOffsetMinutes()).isEqualTo(120);
    assertThat(olderReading.utcOffsetMinutes()).isEqualTo(120);
  }
}
