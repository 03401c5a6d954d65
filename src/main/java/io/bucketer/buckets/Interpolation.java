package io.bucketer.buckets;

/**
 * How the time-weighted average fills the time between two readings of a series ({@link
 * TimeWeighted}). Step holds each reading's value until the next reading, or for at most {@code
 * max.gap}: the value a gauge reported stays true until it reports another. Either way a reading
 * covers the same time; only the values over it differ.
 */
public enum Interpolation {
  STEP("step"),
  /**
   * Linear draws a straight line between two readings at most {@code max.gap} apart: a flow or a
   * temperature sampled now and then changes between its samples. A reading with none after it
   * within the max gap holds its value, as with step.
   */
  LINEAR("linear");

  private final String label;

  Interpolation(final String label) {
    this.label = label;
  }

  /** The name in settings and documents. */
  public String label() {
    return label;
  }

  /**
   * The interpolation named {@code label}.
   *
   * @throws IllegalArgumentException naming the choices, for any other text
   */
  public static Interpolation ofLabel(final String label) {
    for (final Interpolation interpolation : values()) {
      if (interpolation.label.equals(label)) {
        return interpolation;
      }
    }
    throw new IllegalArgumentException("an interpolation is step or linear, not " + label);
  }
}
