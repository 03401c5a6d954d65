package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import java.time.Instant;

/**
 * Readings of one series, in the order they arrived, that the aggregator takes in one record: a
 * {@link ReadingBatch} from the repartition topic, or a {@link SingleReading} straight from the
 * decoder when nothing is repartitioned. The series itself is the record's key.
 */
sealed interface SeriesReadings permits ReadingBatch, SingleReading {

  int size();

  /** Epoch milliseconds of reading {@code index}. */
  long timestamp(int index);

  double value(int index);

  /** The UTC offset of reading {@code index}, in minutes; null when its gateway sent none. */
  Integer utcOffsetMinutes(int index);

  /**
   * Reading {@code index} whole, as one of {@code series}: for the rare path that hands a reading
   * on (the dead letter of a reading too late for its window).
   */
  default Reading reading(final int index, final SeriesKey series) {
    return new Reading(
        series.sensorId(),
        Instant.ofEpochMilli(timestamp(index)),
        value(index),
        series.metric(),
        utcOffsetMinutes(index));
  }
}
