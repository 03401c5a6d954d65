package io.bucketer.buckets;

import java.util.Objects;

/**
 * A time series: one sensor's readings of one metric. The metric is optional; a sensor that reports
 * a single quantity has a single series with a null metric.
 */
public record SeriesKey(String sensorId, String metric) {

  public SeriesKey {
    Objects.requireNonNull(sensorId, "sensorId");
  }

  /**
   * Written out rather than left to the record's generated equals, which runs through method
   * handles: every reading looks its series up in several hash maps, and a live profile (20,000
   * sensors) had 14 % of the stream thread under those handles. Written out, they left the profile;
   * the CPU per reading did not move beyond the runs' spread, since what the first lookup of a
   * reading waits for is its series' state, cold in memory (docs/benchmarks.md).
   */
  @Override
  public boolean equals(final Object other) {
    return this == other
        || other instanceof SeriesKey that
            && sensorId.equals(that.sensorId)
            && Objects.equals(metric, that.metric);
  }

  /** As the record's generated form would, written out for the reason {@link #equals} gives. */
  @Override
  public int hashCode() {
    return 31 * sensorId.hashCode() + Objects.hashCode(metric);
  }

  @Override
  public String toString() {
    return metric == null ? sensorId : sensorId + "/" + metric;
  }
}
