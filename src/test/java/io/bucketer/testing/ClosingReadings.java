package io.bucketer.testing;

import io.bucketer.avro.Reading;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One reading per series a day after the latest reading of a stream: sent after the stream, each
 * moves its series' event time past every window of the stream, so all of them close on event time
 * alone, without waiting for the wall-clock idle timeout. Their own windows stay open.
 */
public final class ClosingReadings {

  private static final Duration A_DAY = Duration.ofDays(1);

  private ClosingReadings() {}

  public static List<Reading> after(final List<Reading> stream) {
    final Instant latest =
        stream.stream().map(Reading::getTimestamp).max(Instant::compareTo).orElseThrow();
    final Map<String, Reading> bySeries = new LinkedHashMap<>();
    for (final Reading reading : stream) {
      bySeries.computeIfAbsent(
          reading.getSensorId() + "|" + reading.getMetric(),
          series ->
              Reading.newBuilder(reading).setTimestamp(latest.plus(A_DAY)).setValue(0).build());
    }
    return List.copyOf(bySeries.values());
  }
}
