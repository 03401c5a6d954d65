package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private static Stream<Duration> delays(final Backoff backoff) {
    return Stream.generate(backoff::next);
  }

  @Test
  void shouldStartAtTheInitialDelayAndDoubleItUpToTheMaximum() {
    final Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(1));

    assertThat(delays(backoff).limit(6))
        .containsExactly(
            Duration.ofMillis(200),
            Duration.ofMillis(400),
            Duration.ofMillis(800),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1));
  }

  @Test
  void shouldStopAtTheMaximumEvenWhenDoublingWouldOvershootIt() {
    final Backoff backoff = new Backoff(Duration.ofMillis(300), Duration.ofMillis(500));

    assertThat(delays(backoff).limit(3))
        .containsExactly(Duration.ofMillis(300), Duration.ofMillis(500), Duration.ofMillis(500));
  }

  @Test
  void shouldWaitTheInitialDelayFirstEvenAboveTheMaximum() {
    final Backoff backoff = new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(2));

    assertThat(delays(backoff).limit(3))
        .containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofSeconds(2));
  }

  @Test
  void shouldKeepEachLoopsDelaysApart() {
    final Backoff indexes = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10));
    final Backoff writes = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10));

    indexes.next();
    indexes.next();

    assertThat(writes.next()).isEqualTo(Duration.ofMillis(100));
    assertThat(indexes.next()).isEqualTo(Duration.ofMillis(400));
  }
}
