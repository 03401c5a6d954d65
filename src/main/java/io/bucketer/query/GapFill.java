package io.bucketer.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a chart shows for a point whose windows have no readings (a sensor down, a quiet series): a
 * value drawn from the points around it, or nothing. The points with readings are never altered.
 */
public enum GapFill {
  /** Left out, as today: a window without readings is not stored. */
  NONE,
  /** Present, without a value. */
  NULL,
  /** The last value of the latest earlier point with readings; none before the first such point. */
  PREVIOUS,
  /**
   * The value, at the point's middle, on the line from the last reading of the latest earlier point
   * with readings to the first reading of the next later one; none without both.
   */
  LINEAR;

  /** The name the API takes: {@code none}, {@code null}, {@code previous}, {@code linear}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws IllegalArgumentException for a name that is none of the labels
   */
  public static GapFill parse(final String label) {
    return Arrays.stream(values())
        .filter(fill -> fill.label().equals(label))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("fill must be one of " + labels()));
  }

  /** The labels, comma-separated. */
  public static String labels() {
    return Arrays.stream(values()).map(GapFill::label).collect(Collectors.joining(", "));
  }

  /**
   * The chart's points: {@code measured} as they are, and, unless this is {@link #NONE}, a filled
   * point in every slot of {@code resolution} that none of them occupies.
   *
   * @param measured points with readings, in start order, each starting at a point of {@code
   *     resolution}
   */
  public List<ChartPoint> apply(final List<WindowTotals> measured, final Resolution resolution) {
    final List<ChartPoint> points = new ArrayList<>();
    if (this == NONE) {
      measured.forEach(totals -> points.add(new ChartPoint.Measured(totals)));
      return points;
    }
    final long width = resolution.pointMillis();
    int next = 0; // the first measured point not yet placed
    for (long i = 0; i < resolution.points(); i++) {
      final long start = resolution.firstStart() + i * width;
      if (next < measured.size() && measured.get(next).start() == start) {
        points.add(new ChartPoint.Measured(measured.get(next++)));
      } else {
        final WindowTotals before = next > 0 ? measured.get(next - 1) : null;
        final WindowTotals after = next < measured.size() ? measured.get(next) : null;
        points.add(
            new ChartPoint.Filled(start, start + width, this, value(before, after, start, width)));
      }
    }
    return points;
  }

  private double value(
      final WindowTotals before, final WindowTotals after, final long start, final long width) {
    return switch (this) {
      case PREVIOUS -> before == null ? Double.NaN : before.stats().last().value();
      case LINEAR -> {
        if (before == null || after == null) {
          yield Double.NaN;
        }
        final double t1 = before.stats().last().timestamp();
        final double v1 = before.stats().last().value();
        final double t2 = after.stats().first().timestamp();
        final double v2 = after.stats().first().value();
        // t1 < start < start + width <= t2: the line is defined and the middle lies on it.
        final double middle = start + width / 2.0;
        yield v1 + (v2 - v1) * (middle - t1) / (t2 - t1);
      }
      default -> Double.NaN;
    };
  }
}
