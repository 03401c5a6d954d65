package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fake of the processor's state as the query side reads it, for one series of minutes and hours:
 * the minutes from {@code heldFrom} (closed, still held for late readings) up to {@code
 * openMinute}, which is open, and the open hour of {@code openMinute}, which holds the readings of
 * its closed minutes only, as a rolled-up window does. Every window is built from {@code readings},
 * so a test can compute what the query should answer from the same list.
 *
 * @param counts each minute's resends and late readings as the state counted them; none for a
 *     minute not in it, and the open hour counts those of its closed minutes
 */
record FakeLiveWindows(
    SeriesKey series,
    List<Measurement> readings,
    long heldFrom,
    long openMinute,
    Map<Long, WindowQuality> counts)
    implements LiveWindows {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final long MINUTE_MILLIS = 60_000;

  /** The state of a series whose windows counted no resend and took no late reading. */
  FakeLiveWindows(
      final SeriesKey series,
      final List<Measurement> readings,
      final long heldFrom,
      final long openMinute) {
    this(series, readings, heldFrom, openMinute, Map.of());
  }

  @Override
  public List<Window> windows(
      final SeriesKey asked, final Granularity granularity, final long from, final long to) {
    final List<Window> held = new ArrayList<>();
    if (!asked.equals(series)) {
      return held;
    }
    if (granularity.equals(HOUR)) {
      // the open hour holds its closed minutes, not the open one
      final long hour = HOUR.windowStart(openMinute);
      if (hour >= from && hour < to) {
        WindowQuality quality = WindowQuality.NONE;
        for (long minute = hour; minute < openMinute; minute += MINUTE_MILLIS) {
          quality = quality.plus(countsOf(minute));
        }
        held.add(
            new Window(hour, BucketStats.ofAll(between(hour, openMinute), null), true, quality));
      }
      return held;
    }
    for (long minute = Math.max(heldFrom, MINUTE.windowStart(from));
        minute < to && minute <= openMinute;
        minute += MINUTE_MILLIS) {
      if (minute >= from) {
        held.add(
            new Window(
                minute,
                BucketStats.ofAll(between(minute, minute + MINUTE_MILLIS), null),
                minute == openMinute,
                countsOf(minute)));
      }
    }
    return held;
  }

  @Override
  public List<Measurement> measurements(final SeriesKey asked, final long from, final long to) {
    return asked.equals(series)
        ? between(Math.max(from, heldFrom), Math.min(to, openMinute + MINUTE_MILLIS))
        : List.of();
  }

  @Override
  public boolean holdsAny(final SeriesKey asked, final Granularity granularity) {
    return asked.equals(series);
  }

  private WindowQuality countsOf(final long minute) {
    return counts.getOrDefault(minute, WindowQuality.NONE);
  }

  private List<Measurement> between(final long from, final long to) {
    return readings.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }
}
