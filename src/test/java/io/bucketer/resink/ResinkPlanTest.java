package io.bucketer.resink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.bucket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.resink.ResinkPlan.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResinkPlanTest {

  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  private static final List<Granularity> CONFIGURED = List.of(MINUTE, HOUR);
  private static final Retention MINUTES_FOR_A_DAY = Retention.parse("1m=1d", CONFIGURED);

  private static ClosedBucket of(final Granularity granularity, final Instant start) {
    return bucket("sensor-1", "temperature", granularity, start.toEpochMilli(), null, 1.0);
  }

  private static ResinkPlan plan(final ResinkSelection selection) {
    return new ResinkPlan(CONFIGURED, MINUTES_FOR_A_DAY, selection, NOW);
  }

  @Test
  void shouldSkipAWindowThatEndedARetentionAgoOrEarlier() {
    final ResinkPlan plan = plan(ResinkSelection.ALL);
    final Instant keptFrom = NOW.minus(Duration.ofDays(1));

    // Ends exactly at now - 1d: MongoDB's TTL index deletes it now.
    assertThat(plan.of(of(MINUTE, keptFrom.minusSeconds(60)))).isEqualTo(Verdict.EXPIRED);
    assertThat(plan.of(of(MINUTE, keptFrom.minusSeconds(59)))).isEqualTo(Verdict.WRITE);
    // The hours keep theirs for ever.
    assertThat(plan.of(of(HOUR, Instant.parse("2020-01-01T00:00:00Z")))).isEqualTo(Verdict.WRITE);
  }

  @Test
  void shouldSkipAGranularityThatIsNoLongerConfigured() {
    final ClosedBucket day = of(Granularity.parse("1d"), NOW.minus(Duration.ofDays(2)));

    assertThat(plan(ResinkSelection.ALL).of(day)).isEqualTo(Verdict.NOT_CONFIGURED);
  }

  @Test
  void shouldWriteOnlyTheSelectedGranularitiesAndWindowStarts() {
    final Instant from = NOW.minus(Duration.ofHours(2));
    final Instant to = NOW.minus(Duration.ofHours(1));
    final ResinkPlan plan =
        plan(
            new ResinkSelection(
                List.of(Granularity.parse("60s")), Optional.of(from), Optional.of(to)));

    assertThat(plan.of(of(MINUTE, from))).as("from is included").isEqualTo(Verdict.WRITE);
    assertThat(plan.of(of(MINUTE, to.minusSeconds(60)))).isEqualTo(Verdict.WRITE);
    assertThat(plan.of(of(MINUTE, to))).as("to is excluded").isEqualTo(Verdict.NOT_SELECTED);
    assertThat(plan.of(of(MINUTE, from.minusSeconds(60)))).isEqualTo(Verdict.NOT_SELECTED);
    assertThat(plan.of(of(HOUR, from))).isEqualTo(Verdict.NOT_SELECTED);
  }

  @Test
  void shouldRefuseARangeThatEndsBeforeItStarts() {
    assertThatThrownBy(
            () ->
                new ResinkSelection(List.of(), Optional.of(NOW), Optional.of(NOW.minusSeconds(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not before --to");
  }
}
