package io.bucketer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackfillPlanTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity QUARTER = Granularity.parse("15m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Granularity DAY = Granularity.parse("1d");
  private static final List<Granularity> CONFIGURED = List.of(MINUTE, QUARTER, HOUR, DAY);
  private static final BucketLayout LAYOUT = BucketLayout.finestKeepsMeasurements(1000);
  private static final Instant NOW = Instant.parse("2026-11-26T06:37:12Z");
  private static final Instant FROM = Instant.parse("2026-01-01T00:07:00Z");

  private static BackfillPlan plan(final List<Granularity> targets, final Optional<Instant> until) {
    return plan(CONFIGURED, LAYOUT, Retention.NONE, targets, until);
  }

  private static BackfillPlan plan(
      final List<Granularity> configured,
      final BucketLayout layout,
      final Retention retention,
      final List<Granularity> targets,
      final Optional<Instant> until) {
    return BackfillPlan.of(
        new BackfillPlan.Request(
            configured,
            layout,
            retention,
            Duration.ofSeconds(10),
            Duration.ofHours(24),
            targets,
            FROM,
            until),
        NOW);
  }

  @Test
  void shouldBuildEachTargetFromItsRollupSourceFinestFirst() {
    final BackfillPlan plan =
        plan(List.of(DAY, QUARTER, Granularity.parse("900s")), Optional.empty());

    assertThat(plan.steps())
        .extracting(BackfillPlan.Step::target, BackfillPlan.Step::source)
        .containsExactly(tuple(QUARTER, MINUTE), tuple(DAY, HOUR));
  }

  @Test
  void shouldStopByDefaultAtTheWindowsPastTheLatenessHorizonAlignedToTheTarget() {
    final BackfillPlan plan = plan(List.of(QUARTER, DAY), Optional.empty());

    // now - grace - horizon = 2026-11-25T06:37:02Z
    assertThat(plan.steps().get(0).until()).isEqualTo(Instant.parse("2026-11-25T06:30:00Z"));
    assertThat(plan.steps().get(1).until()).isEqualTo(Instant.parse("2026-11-25T00:00:00Z"));
    assertThat(plan.steps().get(0).from()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(plan.notes()).isEmpty();
  }

  @Test
  void shouldTakeALaterUntilUpToTheClosedWindowsOnlyAndSaySo() {
    final BackfillPlan capped =
        plan(List.of(QUARTER), Optional.of(Instant.parse("2026-12-01T00:00:00Z")));
    final BackfillPlan withinHorizon =
        plan(List.of(QUARTER), Optional.of(Instant.parse("2026-11-26T01:10:00Z")));
    final BackfillPlan earlier =
        plan(List.of(QUARTER), Optional.of(Instant.parse("2026-06-01T00:20:00Z")));

    // now - grace = 06:37:02: the quarter from 06:30 is still open
    assertThat(capped.steps().get(0).until()).isEqualTo(Instant.parse("2026-11-26T06:30:00Z"));
    assertThat(capped.notes()).singleElement().asString().contains("have not closed yet");
    assertThat(withinHorizon.steps().get(0).until())
        .isEqualTo(Instant.parse("2026-11-26T01:00:00Z"));
    assertThat(withinHorizon.notes())
        .singleElement()
        .asString()
        .contains("may still take late readings", "run backfill again");
    assertThat(earlier.steps().get(0).until()).isEqualTo(Instant.parse("2026-06-01T00:15:00Z"));
    assertThat(earlier.notes()).isEmpty();
  }

  @Test
  void shouldStartNoEarlierThanTheTargetsRetentionKeepsDocuments() {
    final BackfillPlan plan =
        plan(
            CONFIGURED,
            LAYOUT,
            Retention.parse("15m=30d", CONFIGURED),
            List.of(QUARTER, DAY),
            Optional.empty());

    assertThat(plan.steps().get(0).from()).isEqualTo(Instant.parse("2026-10-27T06:30:00Z"));
    assertThat(plan.steps().get(1).from()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(plan.notes()).singleElement().asString().contains("15m", "retention", "30d");
  }

  @Test
  void shouldStartAChainedSourceAtTheFirstWindowItsConsumerBuilds() {
    final Granularity five = Granularity.parse("5m");
    final List<Granularity> chained = List.of(MINUTE, five, QUARTER, HOUR, DAY);

    // 15m rolled up from 5m, both built; --from 00:07 is inside a 5m window and a 15m one.
    final BackfillPlan plan =
        plan(chained, LAYOUT, Retention.NONE, List.of(DAY, QUARTER, five), Optional.empty());

    assertThat(plan.steps())
        .extracting(BackfillPlan.Step::target, BackfillPlan.Step::source, BackfillPlan.Step::from)
        .containsExactly(
            tuple(five, MINUTE, Instant.parse("2026-01-01T00:00:00Z")),
            tuple(QUARTER, five, Instant.parse("2026-01-01T00:00:00Z")),
            tuple(DAY, HOUR, Instant.parse("2026-01-01T00:00:00Z")));
    final BackfillPlan unaligned =
        BackfillPlan.of(
            new BackfillPlan.Request(
                chained,
                LAYOUT,
                Retention.NONE,
                Duration.ofSeconds(10),
                Duration.ofHours(24),
                List.of(five, QUARTER),
                Instant.parse("2026-01-01T09:55:00Z"),
                Optional.empty()),
            NOW);
    assertThat(unaligned.steps())
        .extracting(BackfillPlan.Step::from)
        .containsExactly(
            Instant.parse("2026-01-01T09:45:00Z"), Instant.parse("2026-01-01T09:45:00Z"));
    assertThat(unaligned.notes())
        .containsExactly(
            "5m from 2026-01-01T09:45:00Z: the first 15m window built from it starts there, and is"
                + " built whole");
  }

  @Test
  void shouldStartAChainedTargetAtItsFirstWindowWhoseSourcesItsRetentionKeeps() {
    final Granularity five = Granularity.parse("5m");
    final List<Granularity> chained = List.of(MINUTE, five, QUARTER, HOUR, DAY);

    // 5m kept 30 days from 06:37:12: 2026-10-27T06:35; the first 15m window wholly kept is 06:45.
    final BackfillPlan plan =
        plan(
            chained,
            LAYOUT,
            Retention.parse("5m=30d", chained),
            List.of(five, QUARTER),
            Optional.empty());

    assertThat(plan.steps())
        .extracting(BackfillPlan.Step::from)
        .containsExactly(
            Instant.parse("2026-10-27T06:35:00Z"), Instant.parse("2026-10-27T06:45:00Z"));
    assertThat(plan.notes())
        .anySatisfy(note -> assertThat(note).startsWith("5m from 2026-10-27T06:35:00Z"))
        .anySatisfy(
            note ->
                assertThat(note)
                    .isEqualTo(
                        "15m from 2026-10-27T06:45:00Z: its first window whose 5m windows are"
                            + " all kept (retention)"));
  }

  @Test
  void shouldSayWhenATargetHasNoWindowToBuild() {
    final BackfillPlan plan =
        plan(List.of(QUARTER), Optional.of(Instant.parse("2026-01-01T00:10:00Z")));

    assertThat(plan.steps().get(0).isEmpty()).isTrue();
  }

  @Test
  void shouldRefuseAGranularityFedByReadings() {
    assertThatThrownBy(() -> plan(List.of(MINUTE), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("1m is fed by readings");
    final List<Granularity> withOdd = List.of(MINUTE, Granularity.parse("90s"), HOUR);
    assertThatThrownBy(
            () ->
                plan(
                    withOdd,
                    LAYOUT,
                    Retention.NONE,
                    List.of(Granularity.parse("90s")),
                    Optional.empty()))
        .hasMessageStartingWith("90s is fed by readings");
  }

  @Test
  void shouldRefuseAGranularityNotConfigured() {
    assertThatThrownBy(() -> plan(List.of(Granularity.parse("5m")), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "5m is not one of the granularities [1m, 15m, 1h, 1d]: add it to granularities,"
                + " restart run, then backfill it");
  }

  @Test
  void shouldRefuseAGranularityThatKeepsMeasurements() {
    final BucketLayout keepsHours = new BucketLayout(1000, 100, Set.of(HOUR));

    assertThatThrownBy(
            () -> plan(CONFIGURED, keepsHours, Retention.NONE, List.of(HOUR), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "1h keeps raw measurements (bucket.measurements.granularities): backfill builds"
                + " summary documents only");
  }
}
