package io.bucketer.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A stall shows as the gap between two ticks beyond their period; ordinary jitter does not. */
class StallDetectorTest {

  private static final long SECOND = Duration.ofSeconds(1).toNanos();

  @Test
  void shouldSeeNoStallInTicksThatComeOnTimeOrALittleLate() {
    final StallDetector detector = new StallDetector(Duration.ofSeconds(1), 0);

    assertThat(detector.tick(SECOND)).isEmpty();
    assertThat(detector.tick(2 * SECOND + SECOND / 2)).isEmpty();
    assertThat(detector.tick(5 * SECOND)).as("1.5 s late: under the 2 s noticed").isEmpty();
  }

  @Test
  void shouldMeasureAStallAsTheGapLessOnePeriod() {
    final StallDetector detector = new StallDetector(Duration.ofSeconds(1), 0);
    detector.tick(SECOND);

    assertThat(detector.tick(SECOND + 61 * SECOND)).contains(Duration.ofSeconds(60));
    assertThat(detector.tick(63 * SECOND)).as("the next tick on time again").isEmpty();
  }
}
