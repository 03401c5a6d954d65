package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhaseClockTest {

  @Test
  void shouldCountTheMongoServersCpuTimeAsPartOfTheWholeAndApart() throws Exception {
    // A process that only burns CPU stands in for the MongoDB server.
    final Process server = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    try {
      final ProcessHandle handle = server.toHandle();
      assumeThat(handle.info().totalCpuDuration())
          .as("this platform reports other processes' CPU time")
          .isPresent();
      final PhaseClock clock = PhaseClock.counting(handle).start();
      final Duration atStart = cpu(handle);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> cpu(handle).compareTo(atStart.plusMillis(200)) >= 0);

      final PhaseClock.Measured measured = clock.stop();

      assertThat(measured.mongo()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
      assertThat(measured.cpu()).isGreaterThanOrEqualTo(measured.mongo());
      assertThat(measured.cpuWithoutMongo()).isEqualTo(measured.cpu().minus(measured.mongo()));
      assertThat(measured.cpuWithoutMongoOrJit())
          .isEqualTo(measured.cpuWithoutMongo().minus(measured.jit()));
    } finally {
      server.destroyForcibly().waitFor();
    }
  }

  @Test
  void shouldAddTheProcessesItIsToldToCountToTheWholeButNotToMongos() throws Exception {
    final Process server = new ProcessBuilder("sh", "-c", "sleep 600").start();
    final Process other = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    try {
      assumeThat(other.toHandle().info().totalCpuDuration()).isPresent();
      final PhaseClock clock =
          PhaseClock.counting(server.toHandle()).alsoCounting(other.toHandle()).start();
      final Duration atStart = cpu(other.toHandle());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> cpu(other.toHandle()).compareTo(atStart.plusMillis(200)) >= 0);

      final PhaseClock.Measured measured = clock.stop();

      assertThat(measured.cpu()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
      // the sleeping server used next to nothing; the busy process counts in the whole only
      assertThat(measured.mongo()).isLessThan(Duration.ofMillis(100));
      assertThat(measured.cpuWithoutMongo()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    } finally {
      other.destroyForcibly().waitFor();
      server.destroyForcibly().waitFor();
    }
  }

  private static Duration cpu(final ProcessHandle process) {
    return process.info().totalCpuDuration().orElse(Duration.ZERO);
  }
}
