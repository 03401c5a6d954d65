package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The key every state lookup uses: its written-out equals and hashCode keep the record's rules. */
class SeriesKeyTest {

  @Test
  void shouldBeEqualWithTheSameSensorAndMetricAndHashAlike() {
    final SeriesKey key = new SeriesKey("pump-7", "temperature");
    final SeriesKey same = new SeriesKey(new String("pump-7"), new String("temperature"));

    assertThat(key).isEqualTo(same).hasSameHashCodeAs(same);
    assertThat(new SeriesKey("pump-7", null))
        .isEqualTo(new SeriesKey("pump-7", null))
        .hasSameHashCodeAs(new SeriesKey("pump-7", null));
  }

  @Test
  void shouldDifferBySensorOrMetricAndFromAKeyWithoutAMetric() {
    final SeriesKey key = new SeriesKey("pump-7", "temperature");

    assertThat(key)
        .isNotEqualTo(new SeriesKey("pump-8", "temperature"))
        .isNotEqualTo(new SeriesKey("pump-7", "pressure"))
        .isNotEqualTo(new SeriesKey("pump-7", null))
        .isNotEqualTo("pump-7/temperature")
        .isNotEqualTo(null);
    assertThat(new SeriesKey("pump-7", null)).isNotEqualTo(key);
  }
}
