package io.bucketer.buckets;

/**
 * How the time-weighted average fills the time between two readings of a series ({@link
 * TimeWeighted}). Step holds each reading's value until the next reading, or for at most {@code
 * max.gap}: the value a gauge reported stays true until it reports another.
 */
public enum Interpolation {
  STEP("step");

  private final String label;

  Interpolation(final String label) {
    this.label = label;
  }

  /** The name in settings and documents. */
  public String label() {
    return label;
  }
}
