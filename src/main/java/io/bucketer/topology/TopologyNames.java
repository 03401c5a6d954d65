package io.bucketer.topology;

import io.bucketer.buckets.Granularity;

/**
 * Names of the topology's nodes and stores, shared with its tests. Renaming a store or a node of a
 * deployed topology strands its state, so every name here is deliberate and checked against the
 * reviewed description in {@code src/test/resources/expected-topology.txt}.
 */
public final class TopologyNames {

  public static final String DECODE = "decode-readings";

  /** The decoder's child that takes rejected input to the dead-letter topic. */
  public static final String REJECTED_INPUT = "dead-letter-original-bytes";

  /** Gathers the readings bound for each repartition partition into one record per commit. */
  public static final String BATCH = "batch-readings-by-series";

  /**
   * A store that holds nothing: the batcher's hook, which forwards its batches just before each
   * commit. In memory and without a changelog.
   */
  public static final String BATCH_COMMIT_HOOK = "readings-batch-commit-hook";

  public static final String ROUTE_AGGREGATED = "aggregated-";
  public static final String READINGS_BY_SERIES = "readings-by-series";

  /** The repartition topic of readings by series, as Kafka Streams names it. */
  public static String readingsBySeriesTopic(final String applicationId) {
    return applicationId + "-" + READINGS_BY_SERIES + "-repartition";
  }

  public static final String AGGREGATE = "aggregate-buckets";
  public static final String CLOSED = "closed";
  public static final String TOO_LATE = "too-late";

  /** Each series' clock, where its windows cannot tell it (see WindowLifecycle). */
  public static final String CLOCK_STORE = "series-watermark-store";

  /** Runs of readings sealed off the finest windows of busy series; local, as the windows are. */
  public static final String SEALED_READINGS_STORE = "sealed-readings-v3-store";

  /**
   * The changelogged store of sealed runs before the window log: read until its runs expire, and
   * written only to delete them.
   */
  public static final String LEGACY_SEALED_READINGS_STORE = "sealed-readings-store";

  /** The window stores' changes, one entry per group of windows and commit (see WindowLog). */
  public static final String WINDOW_LOG_STORE = "window-log-store";

  /** How many windows and runs each group of the window log holds; local, as the windows are. */
  public static final String WINDOW_LOG_CENSUS_STORE = "window-log-census-store";

  /**
   * Sparkplug B input: reads each record's MQTT topic and keys it by edge node; its children take
   * the keyed records to the repartition and the rest to the dead-letter topic.
   */
  public static final String SPARKPLUG_KEY_BY_EDGE_NODE = "sparkplug-key-by-edge-node";

  public static final String SPARKPLUG_KEYED = "sparkplug-keyed";
  public static final String SPARKPLUG_UNKEYED_DEAD_LETTER = "sparkplug-dead-letter-unkeyed";

  /** The repartition of Sparkplug B input by edge node, so that births and data meet. */
  public static final String SPARKPLUG_BY_EDGE_NODE = "sparkplug-by-edge-node";

  /** Reads births into the birth store and DATA into readings, in the edge node's task. */
  public static final String SPARKPLUG_DECODE = "sparkplug-decode-readings";

  /**
   * Each edge node's and device's last BIRTH: its metrics' names, aliases and datatypes, keyed
   * {@code group/edge} and {@code group/edge/device}. Changelogged.
   */
  public static final String SPARKPLUG_BIRTH_STORE = "sparkplug-birth-store";

  private TopologyNames() {}

  public static String source(final String topic) {
    return "ingest-" + topic;
  }

  public static String sink(final String topic) {
    return "egress-" + topic;
  }

  /**
   * The open and recently closed windows of one granularity: running sums, and the finest ones'
   * readings. Local, without a changelog: the window log makes them durable. "v3" is that layout;
   * "v2" kept readings in changelogged windows ({@link #legacyWindowStore}); the first layout's
   * stores had no version and a reading log beside them.
   */
  public static String windowStore(final Granularity granularity) {
    return "window-" + granularity.label() + "-v3-store";
  }

  /**
   * The changelogged windows of one granularity before the window log: read until they expire, and
   * written only to delete them, so that an upgrade keeps the windows it finds.
   */
  public static String legacyWindowStore(final Granularity granularity) {
    return "window-" + granularity.label() + "-v2-store";
  }
}
