package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The cores each process took between two readings: what a live run that falls behind prints to say
 * who had the machine.
 */
class CpuByProcessTest {

  @Test
  void shouldCountIdleAndIowaitAsIdleAndTheRestAsBusy() {
    final long[] ticks =
        CpuByProcess.machineTicks(
            "cpu  100 5 50 800 20 3 2 10 7 0\ncpu0 50 2 25 400 10 1 1 5 0 0\nintr 1\n");

    // user nice system irq softirq steal busy; idle and iowait not; guest already in user
    assertThat(ticks).containsExactly(170, 990);
  }

  @Test
  void shouldReadNothingFromWhatIsNotProcStat() {
    assertThat(CpuByProcess.machineTicks("")).containsExactly(0, 0);
  }

  @Test
  void shouldShareOutTheMachinesCoresBetweenTheProcesses() {
    final CpuByProcess before = new CpuByProcess(0, 0, 0, 0, 0, 0);
    final long second = 1_000_000_000L;
    // over 10 s of two cores: the processor 7 s, the stand-in 3 s, the benchmark's JVM 6 s of
    // which the fleet 2 s, the machine busy 17 s
    final CpuByProcess after =
        new CpuByProcess(7 * second, 3 * second, 6 * second, 2 * second, 17 * second, 20 * second);

    final CpuByProcess.Cores cores = after.since(before, Duration.ofSeconds(10));

    assertThat(cores.processor()).isCloseTo(0.7, within(1e-9));
    assertThat(cores.standIn()).isCloseTo(0.3, within(1e-9));
    assertThat(cores.broker()).isCloseTo(0.4, within(1e-9));
    assertThat(cores.fleet()).isCloseTo(0.2, within(1e-9));
    assertThat(cores.other()).isCloseTo(0.1, within(1e-9));
    assertThat(cores.idle()).isCloseTo(0.3, within(1e-9));
  }

  @Test
  void shouldReadThisMachinesFiguresLive() {
    final CpuByProcess now = CpuByProcess.read(ProcessHandle.current().pid(), null);

    // this JVM is the processor and the benchmark's at once here; it has run, so it has used CPU
    assertThat(now.benchNanos()).isPositive();
    assertThat(now.processorNanos()).isPositive();
    assertThat(now.standInNanos()).isZero();
    assertThat(now.machineNanos()).isGreaterThanOrEqualTo(now.machineBusyNanos());
  }
}
