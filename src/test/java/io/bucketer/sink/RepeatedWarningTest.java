package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A dependency down for two minutes, retried every 10 s, writes three lines, not thirteen. */
class RepeatedWarningTest {

  private static final String LOGGER = "io.bucketer.sink.RepeatedWarningTest.subject";

  @Test
  void shouldLogALastingFailureOnceAMinuteAndOnceWhenItEnds() {
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-25T12:00:00Z"));
    final List<String> lines;
    try (CapturedLog log = CapturedLog.of(Level.INFO, LOGGER)) {
      final RepeatedWarning warning = new RepeatedWarning(LoggerFactory.getLogger(LOGGER), clock);
      // Two minutes of attempts 10 s apart: 0 s, 10 s, ... 120 s.
      for (int attempt = 0; attempt <= 12; attempt++) {
        warning.failed("MongoDB: unreachable");
        clock.advance(Duration.ofSeconds(10));
      }
      warning.cleared("MongoDB is back");
      warning.cleared("MongoDB is back");
      lines = log.text().lines().toList();
    }

    assertThat(lines)
        .containsExactly(
            "MongoDB: unreachable",
            "MongoDB: unreachable (6 attempts failed since the last line)",
            "MongoDB: unreachable (6 attempts failed since the last line)",
            "MongoDB is back, after 13 failed attempt(s)");
  }

  @Test
  void shouldStartOverAfterItCleared() {
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-25T12:00:00Z"));
    final List<String> lines;
    try (CapturedLog log = CapturedLog.of(Level.INFO, LOGGER)) {
      final RepeatedWarning warning = new RepeatedWarning(LoggerFactory.getLogger(LOGGER), clock);
      warning.failed("down");
      warning.cleared("up");
      warning.failed("down again");
      lines = log.text().lines().toList();
    }

    assertThat(lines).containsExactly("down", "up, after 1 failed attempt(s)", "down again");
  }
}
