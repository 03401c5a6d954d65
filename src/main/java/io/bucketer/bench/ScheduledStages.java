package io.bucketer.bench;

import java.time.Duration;

/**
 * When a run sampled every few seconds records its processor's stages: JFR started at the first
 * sample if it falls in the warm-up ({@link ProcessorStages#startJfrInWarmUp}), the stretch's
 * recording at the first sample past the warm-up, as the run's other figures are measured from it.
 * The live benchmark's processor and its peers are sampled alike, so they share this.
 */
final class ScheduledStages {

  private final long pid;
  private final Duration warmup;
  private boolean sampled;
  private ProcessorStages stages;

  ScheduledStages(final long pid, final Duration warmup) {
    this.pid = pid;
    this.warmup = warmup;
  }

  /** Called at each sample, {@code elapsed} after the run started. */
  void sampled(final Duration elapsed) throws InterruptedException {
    final boolean inWarmUp = elapsed.compareTo(warmup) < 0;
    if (!sampled && inWarmUp) {
      ProcessorStages.startJfrInWarmUp(pid);
    }
    sampled = true;
    if (stages == null && !inWarmUp) {
      stages = ProcessorStages.start(pid);
    }
  }

  /** Ends the stretch's recording: what it saw, or null when no sample came after the warm-up. */
  ProcessorStages.Recorded stop() throws InterruptedException {
    return stages == null ? null : stages.stop();
  }
}
