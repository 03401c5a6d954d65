package io.bucketer.query;

/**
 * One point of a chart: the totals of the windows it merges, or, when a fill is asked for, a point
 * whose windows have no readings.
 */
public sealed interface ChartPoint permits ChartPoint.Measured, ChartPoint.Filled {

  long start();

  long end();

  /** A point with readings: the merged totals of its windows, which no fill ever alters. */
  record Measured(WindowTotals totals) implements ChartPoint {
    @Override
    public long start() {
      return totals.start();
    }

    @Override
    public long end() {
      return totals.end();
    }
  }

  /**
   * A point without readings.
   *
   * @param value the value {@code rule} gives it, for its avg, min and max; NaN for none
   */
  record Filled(long start, long end, GapFill rule, double value) implements ChartPoint {}
}
