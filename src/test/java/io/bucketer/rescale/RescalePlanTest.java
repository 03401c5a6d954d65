package io.bucketer.rescale;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RescalePlanTest {

  private static final Instant NOW = Instant.parse("2026-12-05T06:20:00Z");

  private static RescalePlan plan(final String granularities, final Duration lead) {
    return plan(granularities, lead, false);
  }

  private static RescalePlan plan(
      final String granularities, final Duration lead, final boolean keyed) {
    return RescalePlan.of(
        new RescalePlan.Inputs(
            "plant-7",
            6,
            keyed,
            "plant-7-sink",
            Granularity.parseList(granularities),
            Duration.ofSeconds(10),
            Duration.ofHours(24),
            Duration.ofHours(1),
            "plant-7-p12",
            12,
            lead),
        NOW);
  }

  @Test
  void shouldHandOverAtTheFirstBoundaryOfEveryWindowPastTheSkewAndTheLead() {
    final RescalePlan plan = plan("1m,1h", Duration.ofMinutes(15));
    // now + 1 h of future skew + 15 min = 07:35: the next hour
    assertThat(plan.handover()).isEqualTo(Instant.parse("2026-12-05T08:00:00Z"));
    assertThat(plan.lateUntil()).isEqualTo(Instant.parse("2026-12-06T08:00:10Z"));
    assertThat(plan.restartBy()).isEqualTo(Instant.parse("2026-12-05T07:00:00Z"));
    assertThat(plan("1m,1d", Duration.ofMinutes(15)).handover())
        .isEqualTo(Instant.parse("2026-12-06T00:00:00Z"));
  }

  @Test
  void shouldGiveEachDeploymentSettingsItsConfigurationAccepts() {
    final RescalePlan plan = plan("1m,1h", Duration.ofMinutes(15));
    final BucketerConfig replaced = new BucketerConfig(settings(plan.replacedSettings()));
    final BucketerConfig replacing = new BucketerConfig(settings(plan.newSettings()));
    assertThat(replaced.handover().takesReading(plan.handover().toEpochMilli() - 1, 0)).isTrue();
    assertThat(replacing.handover().takesReading(plan.handover().toEpochMilli(), 0)).isTrue();
    assertThat(replacing.applicationId()).isEqualTo("plant-7-p12");
    assertThat(replacing.seriesPartitions()).isEqualTo(12);
    assertThat(replacing.kafka().sinkGroupId()).isEqualTo("plant-7-sink");
    assertThat(plan.lines(NOW))
        .anySatisfy(line -> assertThat(line).contains("6 -> 12").contains("2026-12-05T08:00:00Z"))
        .anySatisfy(line -> assertThat(line).contains("by 2026-12-05T07:00:00Z (in 40 min 00 s)"))
        .contains("     rescale.before=2026-12-05T08:00:00Z", "     series.partitions=12");
  }

  @Test
  void shouldMoveAKeyedInputToARepartitionedLayoutAndSayWhenTheInputMayGrow() {
    final RescalePlan plan = plan("1m,1h", Duration.ofMinutes(15), true);
    assertThat(plan.newSettings()).containsEntry("input.partitioning", "any");
    assertThat(plan("1m,1h", Duration.ofMinutes(15)).newSettings())
        .doesNotContainKey("input.partitioning");
    final BucketerConfig replacing = new BucketerConfig(settings(plan.newSettings()));
    assertThat(replacing.inputKeyedBySensor()).isFalse();
    assertThat(plan.lines(NOW))
        .anySatisfy(line -> assertThat(line).contains("grow the input topic only once"));
  }

  @Test
  void shouldLetTheReplacedDeploymentStopOnceItReadEveryRecordBeforeTheEndOfItsLateReadings() {
    final Instant lateUntil = Instant.parse("2026-12-06T08:00:10Z");
    final HandoverProgress reading =
        new HandoverProgress(
            Instant.parse("2026-12-05T08:00:00Z"),
            lateUntil,
            List.of(
                new HandoverProgress.Partition(
                    0, 500, OptionalLong.of(400), OptionalLong.of(400), OptionalLong.of(500)),
                new HandoverProgress.Partition(
                    1, 500, OptionalLong.of(450), OptionalLong.of(449), OptionalLong.of(500))));
    assertThat(reading.replacedMayStop(lateUntil.minusSeconds(1))).isFalse();
    assertThat(reading.replacedMayStop(lateUntil.plusSeconds(1))).isFalse();
    assertThat(reading.partitionsLeft(lateUntil.plusSeconds(1))).isEqualTo(1);
    assertThat(reading.replacedLag()).isEqualTo(151);
    final HandoverProgress done =
        new HandoverProgress(
            reading.handover(),
            lateUntil,
            List.of(
                new HandoverProgress.Partition(
                    0, 500, OptionalLong.of(400), OptionalLong.of(400), OptionalLong.of(500)),
                // nothing written since the end: everything before it must be read
                new HandoverProgress.Partition(
                    1, 300, OptionalLong.empty(), OptionalLong.of(300), OptionalLong.empty())));
    assertThat(done.replacedMayStop(lateUntil)).isTrue();
    assertThat(done.newLag()).isEqualTo(300);
  }

  private static Map<String, Object> settings(final Map<String, String> plan) {
    final Map<String, Object> settings = new HashMap<>(plan);
    settings.put("bootstrap.servers", "broker-1:9092");
    settings.put("schema.registry.url", "http://registry:8081");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    return settings;
  }
}
