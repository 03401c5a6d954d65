package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class GranularityTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");

  @Test
  void shouldParseAndNormaliseLabels() {
    assertThat(Granularity.parse("60s")).isEqualTo(MINUTE);
    assertThat(Granularity.parse("90s").label()).isEqualTo("90s");
    assertThat(Granularity.parse("1d").sizeMillis()).isEqualTo(86_400_000L);
    assertThat(Granularity.parse("250ms").label()).isEqualTo("250ms");
    assertThat(Granularity.parse(" 5M ").label()).isEqualTo("5m");
  }

  @Test
  void shouldRejectUnknownOrEmptyGranularities() {
    assertThatThrownBy(() -> Granularity.parse("1w")).hasMessageContaining("unknown granularity");
    assertThatThrownBy(() -> Granularity.parse("0s")).hasMessageContaining("positive");
    assertThatThrownBy(() -> Granularity.parse("-1m")).hasMessageContaining("unknown");
    assertThatThrownBy(() -> Granularity.parseList(" , ")).hasMessageContaining("at least one");
  }

  @Test
  void shouldSortListsFinestFirstWithoutDuplicates() {
    assertThat(Granularity.parseList("1h,1m,60s,1d"))
        .extracting(Granularity::label)
        .containsExactly("1m", "1h", "1d");
  }

  @Test
  void shouldPutAReadingExactlyAtAWindowEndIntoTheNextWindow() {
    final long tenOClock = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
    assertThat(MINUTE.windowStart(tenOClock - 1)).isEqualTo(tenOClock - 60_000);
    assertThat(MINUTE.windowEnd(MINUTE.windowStart(tenOClock - 1))).isEqualTo(tenOClock);
    assertThat(MINUTE.windowStart(tenOClock)).isEqualTo(tenOClock);
    assertThat(HOUR.windowStart(tenOClock + 3_599_999)).isEqualTo(tenOClock);
    assertThat(HOUR.windowStart(tenOClock + 3_600_000)).isEqualTo(tenOClock + 3_600_000);
  }

  @Test
  void shouldAlignWindowsBeforeTheEpoch() {
    assertThat(MINUTE.windowStart(-1)).isEqualTo(-60_000);
    assertThat(MINUTE.windowStart(-60_000)).isEqualTo(-60_000);
  }

  @Test
  void shouldKnowWhichGranularitiesDivideOthers() {
    assertThat(MINUTE.divides(HOUR)).isTrue();
    assertThat(Granularity.parse("7m").divides(HOUR)).isFalse();
    assertThat(HOUR.divides(MINUTE)).isFalse();
    assertThat(MINUTE.divides(MINUTE)).isFalse();
  }

  @Test
  void shouldEqualAnotherOfTheSameLabelAndSizeOnly() {
    assertThat(Granularity.parse("1m"))
        .isEqualTo(new Granularity("1m", 60_000))
        .hasSameHashCodeAs(new Granularity("1m", 60_000))
        .isNotEqualTo(new Granularity("60s", 60_000))
        .isNotEqualTo(Granularity.parse("1h"))
        .isNotEqualTo("1m");
  }
}
