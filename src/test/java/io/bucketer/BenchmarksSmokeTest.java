package io.bucketer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every JMH benchmark (src/jmh/java) once, briefly and inside this JVM, so a benchmark that
 * breaks fails the build instead of waiting to be found by the next person who runs them. The
 * scores mean nothing at these settings; real runs and their figures are in docs/jmh.md.
 */
class BenchmarksSmokeTest {

  @Test
  void shouldRunAndScoreEveryBenchmark() throws RunnerException {
    // JMH's lock file keeps two real runs from skewing each other. A smoke run measures nothing,
    // so it need not wait for, or fail on, a benchmark run elsewhere on the machine.
    System.setProperty("jmh.ignoreLock", "true");
    final Options smoke =
        new OptionsBuilder()
            .include("io\\.bucketer\\..*Benchmark\\.")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(100))
            .shouldFailOnError(true)
            .output("target/jmh-smoke.txt")
            .build();

    final Collection<RunResult> results = new Runner(smoke).run();

    assertThat(results).isNotEmpty();
    assertThat(results)
        .allSatisfy(
            result ->
                assertThat(result.getPrimaryResult().getScore())
                    .as(result.getParams().getBenchmark() + " " + result.getParams())
                    .isPositive());
  }
}
