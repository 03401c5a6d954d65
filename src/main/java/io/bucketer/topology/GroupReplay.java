package io.bucketer.topology;

import io.bucketer.buckets.RunningStats;
import io.bucketer.topology.WindowLogKeys.Group;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;

/**
 * One group's windows and runs as the window log's entries so far leave them: what {@link
 * WindowLog} compacts a quiet group into, and rebuilds a task's windows from.
 */
final class GroupReplay implements WindowLogCodec.ChangeVisitor {
  final Group group;
  final Map<Bytes, ReplayedWindow> windows = new LinkedHashMap<>();
  final Map<RunKey, ReadingRun> runs = new LinkedHashMap<>();
  int commits;
  long lastSequence;

  GroupReplay(final Group group) {
    this.group = group;
  }

  @Override
  public void whole(final byte[] series, final WindowState state) {
    windows.put(Bytes.wrap(series), new ReplayedWindow(state));
  }

  @Override
  public void appended(
      final byte[] series,
      final boolean closes,
      final Integer utcOffsetMinutes,
      final long[] timestamps,
      final double[] values,
      final int count) {
    final ReplayedWindow window = windows.get(Bytes.wrap(series));
    if (window == null) {
      throw new IllegalStateException(
          "the window log appends to a window it does not hold, in the group of "
              + group.granularity()
              + " windows starting at "
              + group.start());
    }
    window.append(closes, utcOffsetMinutes, timestamps, values, count);
  }

  @Override
  public void deleted(final byte[] series) {
    windows.remove(Bytes.wrap(series));
  }

  @Override
  public void runSealed(final byte[] series, final int number, final ReadingRun run) {
    runs.put(new RunKey(Bytes.wrap(series), number), run);
  }

  @Override
  public void runDeleted(final byte[] series, final int number) {
    runs.remove(new RunKey(Bytes.wrap(series), number));
  }

  /**
   * A window as a replay has it so far: its last whole form, and the readings appended since, added
   * in place ({@link RunningStats}, {@link ReadingRun#with(long, double)}) rather than as a new
   * state for each change: a replay adds every reading of the group again. The window it gives is
   * the one the change's writer had ({@link WindowChange#between} logs readings alone only then).
   */
  static final class ReplayedWindow {
    private final WindowState whole;
    private RunningStats stats;
    private ReadingRun tail;
    private boolean closes;

    ReplayedWindow(final WindowState whole) {
      this.whole = whole;
    }

    void append(
        final boolean closing,
        final Integer utcOffsetMinutes,
        final long[] timestamps,
        final double[] values,
        final int count) {
      if (stats == null) {
        stats = new RunningStats(whole.stats());
        tail = whole.tail();
      }
      for (int i = 0; i < count; i++) {
        tail = tail.with(timestamps[i], values[i]);
        stats.add(timestamps[i], values[i], utcOffsetMinutes);
      }
      closes |= closing;
    }

    WindowState state() {
      return stats == null
          ? whole
          : new WindowState(
              stats.stats(),
              whole.closed() || closes,
              whole.revision(),
              whole.sealedRuns(),
              tail,
              whole.quality());
    }
  }

  record RunKey(Bytes series, int number) {}
}
