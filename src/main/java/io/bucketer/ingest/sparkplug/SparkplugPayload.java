package io.bucketer.ingest.sparkplug;

import java.util.List;

/**
 * A Sparkplug B payload as bucketer reads it.
 *
 * @param hasTimestamp whether the payload has a timestamp
 * @param timestamp its epoch milliseconds, when it has one
 * @param hasSeq whether it has a sequence number
 * @param seq the sequence number, 0 to 255 from a conforming edge node
 * @param metrics its metrics, in the payload's order
 */
public record SparkplugPayload(
    boolean hasTimestamp, long timestamp, boolean hasSeq, long seq, List<SparkplugMetric> metrics) {

  public SparkplugPayload {
    metrics = List.copyOf(metrics);
  }
}
