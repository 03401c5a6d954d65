package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/** The stage breakdown of a measured stretch, with the benchmark's own collections left out. */
class ProcessorStagesTest {

  @Test
  void shouldStartJfrInAJvmAndLeaveNoRecordingOfItsOwnRunning() throws Exception {
    // This JVM stands for the processor's: jcmd reaches it by its pid, as it reaches a child's.
    ProcessorStages.startJfrInWarmUp(ProcessHandle.current().pid());

    assertThat(FlightRecorder.isInitialized()).isTrue();
    assertThat(FlightRecorder.getFlightRecorder().getRecordings())
        .extracting(Recording::getName)
        .doesNotContain(ProcessorStages.WARM_UP_RECORDING);
  }

  @Test
  void shouldKnowEachGroupOfThreadsItMeasuresApartByName() {
    assertThat(ProcessorStages.UNSAMPLED_THREADS)
        .allSatisfy((group, threads) -> assertThat(threads).as(group).isNotNull());
    assertThat(ProcessorStages.UNSAMPLED_THREADS.get("GC threads").test("GC Thread#1")).isTrue();
    assertThat(ProcessorStages.UNSAMPLED_THREADS.get("JIT compilers").test("C2 CompilerThre"))
        .isTrue();
    assertThat(ProcessorStages.UNSAMPLED_THREADS.get("GC threads").test("bucketer-sink")).isFalse();
  }

  @Test
  void shouldTakeTheBenchmarksOwnCollectionsOffTheGcThreadsAndTheTotalAlone() {
    final Map<String, Long> apart = new LinkedHashMap<>();
    apart.put("GC threads", 3_000_000_000L);
    apart.put("JIT compilers", 1_000_000_000L);
    final ProcessorStages.Recorded recorded =
        new ProcessorStages.Recorded(
            Map.of(StageClassifier.Stage.AGGREGATE, 100.0), 10_000_000_000L, apart, 0);

    final ProcessorStages.Breakdown breakdown = recorded.perThousand(1_000_000, 2_000_000_000L);

    // 10 s less the benchmark's 2 s over 1,000 thousand readings; the Java threads keep their 6 s
    assertThat(breakdown.total()).isCloseTo(8.0, within(1e-9));
    assertThat(breakdown.lines())
        .extracting(StageBreakdown.Line::name, StageBreakdown.Line::millisPerThousand)
        .contains(
            tuple("GC threads (measured)", 1.0),
            tuple("JIT compilers (measured)", 1.0),
            tuple(StageClassifier.Stage.AGGREGATE.label(), 6.0));
    assertThat(recorded.perThousand(1_000_000).total()).isCloseTo(10.0, within(1e-9));
  }
}
