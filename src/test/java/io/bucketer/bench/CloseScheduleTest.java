package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CloseScheduleTest {

  private final CloseSchedule minutes =
      new CloseSchedule(Duration.ofMinutes(1), Duration.ofSeconds(10));

  @Test
  void shouldScrapeHalfAWindowAfterEachClose() {
    // windows close at :10 past each minute (end + grace); half a minute later is :40
    assertThat(minutes.scrapeOffset()).isEqualTo(Duration.ofSeconds(40));
    assertThat(minutes.firstScrapeAtOrAfter(Instant.parse("2026-01-01T10:00:05Z")))
        .isEqualTo(Instant.parse("2026-01-01T10:00:40Z"));
    assertThat(minutes.firstScrapeAtOrAfter(Instant.parse("2026-01-01T10:00:40Z")))
        .isEqualTo(Instant.parse("2026-01-01T10:00:40Z"));
    assertThat(minutes.firstScrapeAtOrAfter(Instant.parse("2026-01-01T10:00:41Z")))
        .isEqualTo(Instant.parse("2026-01-01T10:01:40Z"));
  }

  @Test
  void shouldWrapAnOffsetThatPassesTheNextWindowsStart() {
    final CloseSchedule longGrace =
        new CloseSchedule(Duration.ofMinutes(1), Duration.ofSeconds(45));

    // closes at :45, scrapes 30 s later, at :15 of the next minute
    assertThat(longGrace.scrapeOffset()).isEqualTo(Duration.ofSeconds(15));
    assertThat(longGrace.firstScrapeAtOrAfter(Instant.parse("2026-01-01T10:00:20Z")))
        .isEqualTo(Instant.parse("2026-01-01T10:01:15Z"));
  }
}
