package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CachedCheckTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicBoolean answer = new AtomicBoolean(true);
  private final CachedCheck<Boolean> check =
      new CachedCheck<>(
          () -> {
            calls.incrementAndGet();
            return answer.get();
          },
          Duration.ofSeconds(1),
          now::get);

  @Test
  void shouldReuseTheLastResultWithinTheTtl() {
    assertThat(check.get()).isTrue();
    answer.set(false);
    now.addAndGet(Duration.ofMillis(999).toNanos());

    assertThat(check.get()).isTrue();
    assertThat(calls).hasValue(1);
  }

  @Test
  void shouldCheckAgainOnceTheTtlPassed() {
    assertThat(check.get()).isTrue();
    answer.set(false);
    now.addAndGet(Duration.ofSeconds(1).toNanos());

    assertThat(check.get()).isFalse();
    assertThat(calls).hasValue(2);
  }
}
