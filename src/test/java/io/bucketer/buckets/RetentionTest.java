package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetentionTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> CONFIGURED = List.of(MINUTE, HOUR);

  @Test
  void shouldReadARetentionPerGranularity() {
    final Retention retention = Retention.parse("1m=30d, 1h=400d", CONFIGURED);

    assertThat(retention.of(MINUTE)).contains(Duration.ofDays(30));
    assertThat(retention.of(HOUR)).contains(Duration.ofDays(400));
    assertThat(retention).hasToString("1m=30d,1h=400d");
  }

  @Test
  void shouldKeepForEverWhatItDoesNotName() {
    assertThat(Retention.parse("", CONFIGURED)).isEqualTo(Retention.NONE);
    assertThat(Retention.parse("1h=400d", CONFIGURED).of(MINUTE)).isEmpty();
    assertThat(Retention.NONE.keptFrom(MINUTE, Instant.EPOCH)).isEmpty();
  }

  @Test
  void shouldNameTheSameGranularityByAnySpelling() {
    assertThat(Retention.parse("60s=2d", CONFIGURED).of(MINUTE)).contains(Duration.ofDays(2));
  }

  @Test
  void shouldSayFromWhenDocumentsAreStillKept() {
    final Instant now = Instant.parse("2026-11-22T12:00:00Z");

    assertThat(Retention.parse("1m=30d", CONFIGURED).keptFrom(MINUTE, now))
        .contains(Instant.parse("2026-10-23T12:00:00Z"));
  }

  @Test
  void shouldRefuseWhatItCannotReadWithAMessageNamingIt() {
    assertThatThrownBy(() -> Retention.parse("1m:30d", CONFIGURED))
        .hasMessageContaining("'1m:30d' is not <granularity>=<span>");
    assertThatThrownBy(() -> Retention.parse("1d=30d", CONFIGURED))
        .hasMessageContaining("1d is not one of the granularities");
    assertThatThrownBy(() -> Retention.parse("1m=30d,60s=1d", CONFIGURED))
        .hasMessageContaining("given twice");
    assertThatThrownBy(() -> Retention.parse("1m=0s", CONFIGURED))
        .hasMessageContaining("at least 1s");
  }
}
