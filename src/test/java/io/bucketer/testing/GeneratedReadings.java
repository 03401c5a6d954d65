package io.bucketer.testing;

import io.bucketer.avro.Reading;
import io.bucketer.simulate.ReadingGenerator;
import java.util.ArrayList;
import java.util.List;

/** The whole stream of a {@link ReadingGenerator}, in sending order. */
public final class GeneratedReadings {

  private GeneratedReadings() {}

  public static List<Reading> of(final ReadingGenerator.Options options) {
    final List<Reading> readings = new ArrayList<>();
    new ReadingGenerator(options).forEachRemaining(readings::add);
    return readings;
  }
}
