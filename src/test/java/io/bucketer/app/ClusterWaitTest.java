package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.bucketer.kafkaaccess.KafkaUnusableException;
import io.bucketer.testing.CapturedLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The start's wait for a cluster that does not answer: retried, said while it lasts, logged once a
 * minute and once when it ends; any other failure ends it at once.
 */
class ClusterWaitTest {

  private static final String AWAY = "kafka at k:9092: unreachable: no answer within 10 s";

  @Test
  void shouldRetryWhileUnreachableSayingWhyAndLogOnceAMinuteAndOnceWhenItEnds() throws Exception {
    // each attempt takes 20 s of the clock, as a timed-out admin call would
    final Instant[] now = {Instant.parse("2026-11-25T12:00:00Z")};
    final ClusterWait wait =
        new ClusterWait(Duration.ofMillis(1), Duration.ofMillis(2), () -> now[0]);
    final List<Optional<String>> reasonsSeen = new ArrayList<>();
    final AtomicInteger attempts = new AtomicInteger();
    final String result;
    final List<String> lines;
    try (CapturedLog log = CapturedLog.of(Level.INFO, "io.bucketer.app.ClusterWait")) {
      result =
          wait.until(
              "k:9092",
              () -> {
                reasonsSeen.add(wait.waitingReason());
                now[0] = now[0].plusSeconds(20);
                if (attempts.incrementAndGet() <= 6) {
                  throw new KafkaUnreachableException(AWAY);
                }
                return "set up";
              });
      lines = log.text().lines().toList();
    }

    assertThat(result).isEqualTo("set up");
    assertThat(reasonsSeen.get(0)).isEmpty();
    assertThat(reasonsSeen.subList(1, 7)).containsOnly(Optional.of(AWAY));
    assertThat(wait.waitingReason()).isEmpty();
    // failures at 20 s, 40 s, ... 120 s of the clock: logged at 20 s and 80 s
    assertThat(lines)
        .containsExactly(
            AWAY + ": retrying until it answers",
            AWAY + ": retrying until it answers",
            "kafka at k:9092 answers now, after 6 failed attempt(s)");
  }

  @Test
  void shouldEndAtOnceOnAFailureRetryingCannotFix() {
    final ClusterWait wait =
        new ClusterWait(Duration.ofMillis(1), Duration.ofMillis(2), Instant::now);
    final AtomicInteger attempts = new AtomicInteger();

    assertThatThrownBy(
            () ->
                wait.until(
                    "k:9092",
                    () -> {
                      attempts.incrementAndGet();
                      throw new KafkaUnusableException("kafka at k:9092: authentication failed");
                    }))
        .isInstanceOf(KafkaUnusableException.class)
        .hasMessage("kafka at k:9092: authentication failed");
    assertThat(attempts).hasValue(1);
    assertThat(wait.waitingReason()).isEmpty();
  }
}
