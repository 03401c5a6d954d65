package io.bucketer.topology;

import io.bucketer.buckets.Granularity;

/**
 * Names of the topology's nodes and stores, shared with its tests. Renaming a store or a node of a
 * deployed topology strands its state, so every name here is deliberate and checked against the
 * reviewed description in {@code src/test/resources/expected-topology.txt}.
 */
public final class TopologyNames {

  public static final String DECODE = "decode-readings";
  public static final String ROUTE = "decoded-";
  public static final String ROUTE_AGGREGATED = "aggregated-";
  public static final String REJECTED = "rejected";
  public static final String ACCEPTED = "accepted";
  public static final String READINGS_BY_SERIES = "readings-by-series";
  public static final String AGGREGATE = "aggregate-buckets";
  public static final String CLOSED = "closed";
  public static final String TOO_LATE = "too-late";
  public static final String WATERMARK_STORE = "series-watermark-store";
  public static final String READINGS_STORE = "reading-log-store";

  private TopologyNames() {}

  public static String source(final String topic) {
    return "ingest-" + topic;
  }

  public static String sink(final String topic) {
    return "egress-" + topic;
  }

  /** Running sums of the open and recently closed windows of one granularity. */
  public static String windowStore(final Granularity granularity) {
    return "window-" + granularity.label() + "-store";
  }
}
