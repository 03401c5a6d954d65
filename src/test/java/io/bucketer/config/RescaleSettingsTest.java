package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.Handover;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RescaleSettingsTest {

  private static Map<String, Object> settings(final String... pairs) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker-1:9092");
    settings.put("schema.registry.url", "http://registry:8081");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    for (int i = 0; i < pairs.length; i += 2) {
      settings.put(pairs[i], pairs[i + 1]);
    }
    return settings;
  }

  @Test
  void shouldTakeEverythingAndSinkAsTheApplicationWhenNoRescaleIsUnderWay() {
    final BucketerConfig config = new BucketerConfig(settings("application.id", "plant-7"));
    assertThat(config.handover()).isEqualTo(Handover.NONE);
    assertThat(config.kafka().sinkGroupId()).isEqualTo("plant-7-sink");
  }

  @Test
  void shouldReadEitherSideOfAHandover() {
    final BucketerConfig old =
        new BucketerConfig(
            settings(
                "rescale.before", "2026-12-05T08:00:00Z",
                "rescale.late.until", "2026-12-06T08:00:10Z"));
    assertThat(old.handover())
        .isEqualTo(
            new Handover(
                Handover.Side.BEFORE,
                Instant.parse("2026-12-05T08:00:00Z").toEpochMilli(),
                Instant.parse("2026-12-06T08:00:10Z").toEpochMilli()));
    final BucketerConfig replacing =
        new BucketerConfig(
            settings(
                "application.id", "plant-7-p12",
                "rescale.from", "2026-12-05T08:00:00Z",
                "rescale.late.until", "2026-12-06T08:00:10Z",
                "sink.group.id", "plant-7-sink"));
    assertThat(replacing.handover().side()).isEqualTo(Handover.Side.FROM);
    assertThat(replacing.kafka().sinkGroupId()).isEqualTo("plant-7-sink");
  }

  @Test
  void shouldRefuseAHandoverThatSplitsAWindow() {
    assertThatThrownBy(
            () ->
                new BucketerConfig(
                    settings(
                        "rescale.from", "2026-12-05T08:30:00Z",
                        "rescale.late.until", "2026-12-06T08:00:10Z")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("rescale.from")
        .hasMessageContaining("inside a window of [1h]");
  }

  @Test
  void shouldRefuseBothSidesAMissingOrEarlyEndAndAnInstantItCannotRead() {
    assertThatThrownBy(
            () ->
                new BucketerConfig(
                    settings(
                        "rescale.from", "2026-12-05T08:00:00Z",
                        "rescale.before", "2026-12-05T09:00:00Z",
                        "rescale.late.until", "2026-12-06T08:00:10Z")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("both set");
    assertThatThrownBy(() -> new BucketerConfig(settings("rescale.before", "2026-12-05T08:00:00Z")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("rescale.late.until")
        .hasMessageContaining("must be set with rescale.before");
    assertThatThrownBy(
            () ->
                new BucketerConfig(
                    settings(
                        "rescale.before", "2026-12-05T08:00:00Z",
                        "rescale.late.until", "2026-12-05T07:00:00Z")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("is before rescale.before");
    assertThatThrownBy(
            () ->
                new BucketerConfig(
                    settings(
                        "rescale.from", "2026-12-05T08:00:00Z",
                        "rescale.late.until", "2026-12-06T08:00:10Z",
                        "input.partitioning", "by-sensor")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("needs input.partitioning=any");
    // the replaced deployment may be keyed: a rescale is how a keyed input grows
    assertThat(
            new BucketerConfig(
                    settings(
                        "rescale.before", "2026-12-05T08:00:00Z",
                        "rescale.late.until", "2026-12-06T08:00:10Z",
                        "input.partitioning", "by-sensor"))
                .handover()
                .side())
        .isEqualTo(Handover.Side.BEFORE);
    assertThatThrownBy(() -> new BucketerConfig(settings("rescale.from", "tomorrow")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("not an ISO-8601 instant");
  }
}
