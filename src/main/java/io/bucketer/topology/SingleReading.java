package io.bucketer.topology;

import io.bucketer.avro.Reading;

/** One decoded reading, as the aggregator takes it when nothing is repartitioned. */
record SingleReading(Reading reading) implements SeriesReadings {

  @Override
  public int size() {
    return 1;
  }

  @Override
  public long timestamp(final int index) {
    return only(index).getTimestamp().toEpochMilli();
  }

  @Override
  public double value(final int index) {
    return only(index).getValue();
  }

  @Override
  public Integer utcOffsetMinutes(final int index) {
    return only(index).getUtcOffsetMinutes();
  }

  private Reading only(final int index) {
    if (index != 0) {
      throw new IndexOutOfBoundsException(index);
    }
    return reading;
  }
}
