package io.bucketer.bench;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * When a live run takes its samples: one every {@code every} counted from the start, whatever each
 * sample took to read, up to the one due when the warm-up and the measured stretch are over. So the
 * first sample past the warm-up and the last are the measured stretch's length apart, not that
 * length plus the drift of every sample's reading time and a last sample's wait for the fleet's
 * end. A stretch of whole minutes then holds the same number of minute closes in every run, where
 * one a few seconds longer or shorter took or left a close's burst of work at its edges, which
 * moved records and CPU per reading by more than the changes measured (docs/benchmarks.md).
 */
final class SampleSchedule {

  private final long startedNanos;
  private final long everyNanos;
  private final int samples;
  private int taken;

  /** Starts now: the first sample is due {@code every} from now. */
  SampleSchedule(final Duration every, final Duration warmup, final Duration measured) {
    this(System.nanoTime(), every, warmup.plus(measured));
  }

  SampleSchedule(final long startedNanos, final Duration every, final Duration total) {
    if (every.isZero() || every.isNegative()) {
      throw new IllegalArgumentException("the time between two samples must be positive");
    }
    this.startedNanos = startedNanos;
    this.everyNanos = every.toNanos();
    this.samples = (int) Math.max(1, ceilDiv(total.toNanos(), everyNanos));
  }

  /** How many samples the run takes: the last is due at or just after the run's end. */
  int samples() {
    return samples;
  }

  /** Whether a sample is still to be taken. */
  boolean hasNext() {
    return taken < samples;
  }

  /** When sample {@code index} (from 0) is due, after the start. */
  Duration dueAt(final int index) {
    return Duration.ofNanos((index + 1) * everyNanos);
  }

  /**
   * Waits until the next sample is due (at once when reading the last took longer than {@code
   * every}) and returns the time since the start. Pacing, not synchronisation: nothing waits on
   * another thread here.
   */
  Duration awaitNext() throws InterruptedException {
    final long due = startedNanos + dueAt(taken).toNanos();
    taken++;
    final long wait = due - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  private static long ceilDiv(final long a, final long b) {
    return -Math.floorDiv(-a, b);
  }
}
