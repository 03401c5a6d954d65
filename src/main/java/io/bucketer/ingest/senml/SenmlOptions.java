package io.bucketer.ingest.senml;

import java.util.Objects;

/**
 * How input.format=senml reads packs.
 *
 * @param encoding JSON or CBOR (input.senml.encoding)
 * @param metric what the readings' metric is (input.senml.metric)
 * @param skipped told of each string, boolean or data value of an accepted pack
 */
public record SenmlOptions(SenmlEncoding encoding, SenmlMetric metric, SkippedValues skipped) {

  /** JSON packs, the unit as the metric, skipped values not counted. */
  public static final SenmlOptions DEFAULT =
      new SenmlOptions(SenmlEncoding.JSON, SenmlMetric.UNIT, SkippedValues.NONE);

  public SenmlOptions {
    Objects.requireNonNull(encoding, "encoding");
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(skipped, "skipped");
  }

  /** The same options, counting skipped values with {@code counter}. */
  public SenmlOptions countingSkipsWith(final SkippedValues counter) {
    return new SenmlOptions(encoding, metric, counter);
  }
}
