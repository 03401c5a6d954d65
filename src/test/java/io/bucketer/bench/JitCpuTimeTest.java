package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JitCpuTimeTest {

  @Test
  void shouldReadTheCompilerThreadsCpuTimeWhichOnlyGrows() {
    final long first = JitCpuTime.nanos();
    final long second = JitCpuTime.nanos();

    assertThat(second).isGreaterThanOrEqualTo(first);
    if (Files.isDirectory(Path.of("/proc/self/task"))) {
      // By the time a test runs, the JIT has compiled for far longer than one 10 ms tick.
      assertThat(first).isPositive();
    }
  }
}
