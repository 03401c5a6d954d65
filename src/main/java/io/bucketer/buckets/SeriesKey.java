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

  @Override
  public String toString() {
    return metric == null ? sensorId : sensorId + "/" + metric;
  }
}
