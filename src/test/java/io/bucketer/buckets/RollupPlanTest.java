package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RollupPlanTest {

  @Test
  void shouldRollEachGranularityUpFromTheCoarsestFinerOneThatDividesIt() {
    final RollupPlan plan = new RollupPlan(Granularity.parseList("1m,5m,1h,1d"));

    assertThat(plan.fedByReadings()).extracting(Granularity::label).containsExactly("1m");
    assertThat(plan.sourceOf(Granularity.parse("5m"))).contains(Granularity.parse("1m"));
    assertThat(plan.sourceOf(Granularity.parse("1h"))).contains(Granularity.parse("5m"));
    assertThat(plan.sourceOf(Granularity.parse("1d"))).contains(Granularity.parse("1h"));
    assertThat(plan.rolledUpFrom(Granularity.parse("1m")))
        .extracting(Granularity::label)
        .containsExactly("5m");
  }

  @Test
  void shouldFeedAGranularityThatNothingDividesFromReadings() {
    final RollupPlan plan = new RollupPlan(Granularity.parseList("2m,7m,1h"));

    assertThat(plan.fedByReadings()).extracting(Granularity::label).containsExactly("2m", "7m");
    assertThat(plan.sourceOf(Granularity.parse("1h"))).contains(Granularity.parse("2m"));
  }
}
