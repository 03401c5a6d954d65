package io.bucketer.sketch;

import java.util.Arrays;
import java.util.Random;

/**
 * The readings the sketch comparison and benchmarks run on: the three shapes issue 31 names, each
 * from a fixed seed so that every run sketches the same values.
 */
enum SketchShapes {

  /** A value that does not change: a setpoint, a stuck sensor. */
  CONSTANT("constant 21.5") {
    @Override
    double[] values(final int count, final long seed) {
      final double[] values = new double[count];
      Arrays.fill(values, 21.5);
      return values;
    }
  },

  /** A room temperature's noise, uniform over 21–27 °C, to 0.01 °C as sensors report it. */
  TEMPERATURE("21–27 °C noise") {
    @Override
    double[] values(final int count, final long seed) {
      final Random random = new Random(seed);
      final double[] values = new double[count];
      for (int i = 0; i < count; i++) {
        values[i] = Math.round((21 + 6 * random.nextDouble()) * 100) / 100.0;
      }
      return values;
    }
  },

  /**
   * A power meter, in kW to the watt: idle at 0.2–0.4 kW, and bursts of 2–5 kW that start at 1 % of
   * readings and last 30 readings on average, so about a quarter of the readings are in bursts.
   */
  POWER("0.2–5 kW bursts") {
    @Override
    double[] values(final int count, final long seed) {
      final Random random = new Random(seed);
      final double[] values = new double[count];
      boolean burst = false;
      for (int i = 0; i < count; i++) {
        burst = burst ? random.nextInt(30) != 0 : random.nextInt(100) == 0;
        final double kilowatts =
            burst ? 2 + 3 * random.nextDouble() : 0.2 + 0.2 * random.nextDouble();
        values[i] = Math.round(kilowatts * 1000) / 1000.0;
      }
      return values;
    }
  };

  private final String description;

  SketchShapes(final String description) {
    this.description = description;
  }

  /** {@code count} readings of this shape, the same for the same seed. */
  abstract double[] values(int count, long seed);

  String description() {
    return description;
  }
}
