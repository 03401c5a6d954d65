package io.bucketer.testing;

import io.bucketer.avro.Reading;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An independent computation of the buckets that a list of readings must produce: plain grouping by
 * series and window with no code shared with the processor, so that a pipeline test compares the
 * product against something it could not have got wrong the same way. Readings with equal times
 * keep the order of the list, which is the order they were sent in.
 */
public final class ExpectedBuckets {

  /** The expected content of one bucket document. */
  public record Expected(
      String sensorId,
      String metric,
      long windowStart,
      long windowEnd,
      long count,
      double sum,
      double min,
      double max,
      List<Long> timestamps,
      List<Double> values) {

    /** The population standard deviation, computed in two passes over the values. */
    public double standardDeviation() {
      final double mean = values.stream().mapToDouble(Double::doubleValue).sum() / count;
      final double squares =
          values.stream().mapToDouble(value -> (value - mean) * (value - mean)).sum();
      return Math.sqrt(squares / count);
    }

    public long firstTimestamp() {
      return timestamps.get(0);
    }

    public double firstValue() {
      return values.get(0);
    }

    public long lastTimestamp() {
      return timestamps.get(timestamps.size() - 1);
    }

    public double lastValue() {
      return values.get(values.size() - 1);
    }
  }

  private ExpectedBuckets() {}

  /** Expected buckets of one window size, keyed by "sensor|metric|start" in a stable order. */
  public static Map<String, Expected> compute(
      final List<Reading> readings, final long windowMillis) {
    final Map<String, List<Reading>> grouped = new TreeMap<>();
    for (final Reading reading : readings) {
      final long timestamp = reading.getTimestamp().toEpochMilli();
      final long start = timestamp - Math.floorMod(timestamp, windowMillis);
      grouped
          .computeIfAbsent(
              key(reading.getSensorId(), reading.getMetric(), start), k -> new ArrayList<>())
          .add(reading);
    }
    final Map<String, Expected> expected = new TreeMap<>();
    grouped.forEach(
        (key, members) -> {
          final List<Reading> sorted = new ArrayList<>(members);
          sorted.sort(Comparator.comparing(Reading::getTimestamp));
          final Reading first = sorted.get(0);
          final long timestamp = first.getTimestamp().toEpochMilli();
          final long start = timestamp - Math.floorMod(timestamp, windowMillis);
          double sum = 0;
          double min = Double.POSITIVE_INFINITY;
          double max = Double.NEGATIVE_INFINITY;
          for (final Reading reading : sorted) {
            sum += reading.getValue();
            min = Math.min(min, reading.getValue());
            max = Math.max(max, reading.getValue());
          }
          expected.put(
              key,
              new Expected(
                  first.getSensorId(),
                  first.getMetric(),
                  start,
                  start + windowMillis,
                  sorted.size(),
                  sum,
                  min,
                  max,
                  sorted.stream().map(r -> r.getTimestamp().toEpochMilli()).toList(),
                  sorted.stream().map(Reading::getValue).toList()));
        });
    return expected;
  }

  /**
   * The expected windows of {@code finerMillis} that have readings and lie inside {@code window},
   * of its series, in start order: what a coarse window's summaries must be.
   */
  public static List<Expected> within(
      final List<Reading> readings, final long finerMillis, final Expected window) {
    return compute(readings, finerMillis).values().stream()
        .filter(
            finer ->
                finer.sensorId().equals(window.sensorId())
                    && Objects.equals(finer.metric(), window.metric())
                    && finer.windowStart() >= window.windowStart()
                    && finer.windowEnd() <= window.windowEnd())
        .sorted(Comparator.comparingLong(Expected::windowStart))
        .toList();
  }

  public static String key(final String sensorId, final String metric, final long windowStart) {
    return sensorId + "|" + metric + "|" + windowStart;
  }
}
