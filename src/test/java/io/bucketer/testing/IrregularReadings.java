package io.bucketer.testing;

import io.bucketer.buckets.Measurement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Readings of a sensor that reports on change, for the time-weighted tests' oracles. */
public final class IrregularReadings {

  private IrregularReadings() {}

  /**
   * Readings in time order from about {@code start} for {@code spanMillis}: steady spells every few
   * seconds, bursts, and silences of 200 to 900 s, longer than the max gaps those tests use.
   */
  public static List<Measurement> of(
      final SplittableRandom random, final long start, final long spanMillis) {
    final List<Measurement> readings = new ArrayList<>();
    long time = start + random.nextInt(0, 90_000);
    final long end = start + spanMillis;
    while (time < end) {
      readings.add(new Measurement(time, Math.round(random.nextDouble(-50, 150) * 100) / 100.0));
      final int kind = random.nextInt(100);
      time +=
          kind < 5
              ? random.nextInt(200_000, 900_000) // a silence
              : kind < 30 ? random.nextInt(1, 800) : random.nextInt(1_000, 40_000);
    }
    return readings;
  }
}
