package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

  private static final String EARLIER =
      """
      # TYPE bucketer_bucket_close_to_visible_seconds histogram
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="0.1"} 10.0
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="0.25"} 20.0
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="0.5"} 20.0
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="+Inf"} 20.0
      bucketer_bucket_close_to_visible_seconds_count{application="a"} 20.0
      bucketer_readings_total{outcome="on-time"} 5.0
      """;

  private static final String LATER =
      """
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="0.1"} 10.0
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="0.25"} 118.0
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="0.5"} 219.0
      bucketer_bucket_close_to_visible_seconds_bucket{application="a",le="+Inf"} 220.0
      """;

  @Test
  void shouldReadAHistogramsCumulativeBucketsFromAScrape() {
    final LatencyHistogram histogram = scrape(EARLIER);

    assertThat(histogram.count()).isEqualTo(20);
    assertThat(histogram.cumulative()).containsKeys(0.1, 0.25, 0.5, Double.POSITIVE_INFINITY);
    assertThat(histogram.quantileMillis(0.5)).isEqualTo(100.0);
    assertThat(histogram.quantileMillis(0.99)).isEqualTo(250.0);
  }

  @Test
  void shouldLeaveOutWhatWasRecordedBeforeAnEarlierScrape() {
    final LatencyHistogram recent = scrape(LATER).since(scrape(EARLIER));

    assertThat(recent.count()).isEqualTo(200);
    // none of the 200 took 100 ms or less; 98 at most 250 ms, 199 at most 500 ms
    assertThat(recent.quantileMillis(0.4)).isEqualTo(250.0);
    assertThat(recent.quantileMillis(0.5)).isEqualTo(500.0);
    assertThat(recent.quantileMillis(0.99)).isEqualTo(500.0);
    assertThat(recent.quantileMillis(1.0)).isInfinite();
  }

  @Test
  void shouldHaveNoQuantileWhenNothingWasRecorded() {
    assertThat(scrape("bucketer_readings_total 1.0").count()).isZero();
    assertThat(scrape("bucketer_readings_total 1.0").quantileMillis(0.99)).isNaN();
    assertThat(scrape(EARLIER).since(scrape(EARLIER)).quantileMillis(0.5)).isNaN();
  }

  @Test
  void shouldSayAQuantileAsABoundOrAsBeyondTheLastFiniteOne() {
    final LatencyHistogram recent = scrape(LATER).since(scrape(EARLIER));

    assertThat(recent.describe(0.4)).isEqualTo("<= 250 ms");
    assertThat(recent.describe(1.0)).isEqualTo("> 500 ms");
    assertThat(scrape(EARLIER).since(scrape(EARLIER)).describe(0.5)).isEqualTo("-");
  }

  private static LatencyHistogram scrape(final String text) {
    return new LatencyHistogram(
        PrometheusText.parse(text).histogram("bucketer_bucket_close_to_visible_seconds"));
  }
}
