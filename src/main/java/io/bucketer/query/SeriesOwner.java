package io.bucketer.query;

/**
 * Where the live state of one series is: Kafka Streams gives each series' partition, and with it
 * its windows, to exactly one instance at a time.
 */
public sealed interface SeriesOwner {

  /** This instance holds the series: read its state here. */
  record Local(LiveWindows windows) implements SeriesOwner {}

  /** Another instance holds it, at the HTTP endpoint it advertises. */
  record Remote(String host, int port) implements SeriesOwner {}

  /** Nobody can answer for it now (the group is rebalancing, or state is being restored). */
  record Unavailable(String reason) implements SeriesOwner {}
}
