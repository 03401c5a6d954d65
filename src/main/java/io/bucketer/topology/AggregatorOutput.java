package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;

/** What the bucket aggregator emits: a closed bucket for the sink, or a reading it cannot place. */
sealed interface AggregatorOutput {

  /** A window that closed: its bucket goes to the buckets topic. */
  record Closed(ClosedBucket bucket) implements AggregatorOutput {}

  /**
   * A reading whose window had already closed, or that a rescale's new layout cannot hold: it goes
   * to the dead-letter topic, saying why.
   */
  record TooLate(Reading reading, String why) implements AggregatorOutput {}

  /**
   * A reading of a series that holds no state, refused it by its tenant's series limit: it goes to
   * the dead-letter topic, naming the tenant.
   */
  record OverSeriesLimit(Reading reading, String tenant, String why) implements AggregatorOutput {}
}
