package io.bucketer.buckets;

/**
 * What every window computes per series beyond its count, sum, min and max: the time-weighted parts
 * (each series' max gap and interpolation), the quantile sketch (each series' accuracy, or none)
 * and the expected interval (configured, learned or none). One value, so that the settings that
 * carry them to the windows name them once.
 */
public record WindowComputations(
    TimeWeightings timeWeightings,
    SketchAccuracies sketchAccuracies,
    ExpectedIntervals expectedIntervals) {

  /**
   * Step with a max gap of five minutes, sketches of the default accuracy, no expected interval.
   */
  public static final WindowComputations DEFAULT =
      new WindowComputations(
          TimeWeightings.DEFAULT, SketchAccuracies.DEFAULT, ExpectedIntervals.NONE);

  /** These computations with each series' max gap and interpolation for its time-weighted parts. */
  public WindowComputations withTimeWeightings(final TimeWeightings weightings) {
    return new WindowComputations(weightings, sketchAccuracies, expectedIntervals);
  }

  /** These computations with each series' quantile sketch accuracy, or none. */
  public WindowComputations withSketchAccuracies(final SketchAccuracies accuracies) {
    return new WindowComputations(timeWeightings, accuracies, expectedIntervals);
  }

  /** These computations with how often each series is expected to send, where configured. */
  public WindowComputations withExpectedIntervals(final ExpectedIntervals intervals) {
    return new WindowComputations(timeWeightings, sketchAccuracies, intervals);
  }
}
