package io.bucketer.ingest.senml;

import java.util.Objects;

/**
 * What the readings of a SenML pack take as their metric (input.senml.metric); their sensor id is
 * always the resolved name, base name and name concatenated.
 *
 * <ul>
 *   <li>{@code unit} (the default): the record's resolved unit (its {@code u}, else the base unit),
 *       no metric when it has neither. So the unit is kept, and values of different units never
 *       share a window: a sensor that reports Cel and then K fills two series instead of averaging
 *       the two. RFC 8428's own "Multiple Measurements" example, whose humidity, longitude and
 *       latitude share one name and differ by unit, becomes three series.
 *   <li>{@code none}: no metric; the unit is dropped. For fleets whose names already say what was
 *       measured and never change unit.
 *   <li>any other text: that metric for every reading, the unit dropped.
 * </ul>
 *
 * <p>A record's sum ({@code s}, the integral of its values over time, in the unit times seconds) is
 * a different quantity from its value, so it is a series of its own: the value's metric with {@code
 * _sum} appended ({@code kWh_sum}), or {@code sum} when the value has no metric.
 */
public final class SenmlMetric {

  /** The resolved unit. */
  public static final SenmlMetric UNIT = new SenmlMetric(Mode.UNIT, null);

  /** No metric at all. */
  public static final SenmlMetric NONE = new SenmlMetric(Mode.NONE, null);

  private static final String SUM_SUFFIX = "_sum";
  private static final String SUM = "sum";

  private enum Mode {
    UNIT,
    NONE,
    FIXED
  }

  private final Mode mode;
  private final String fixed;

  private SenmlMetric(final Mode mode, final String fixed) {
    this.mode = mode;
    this.fixed = fixed;
  }

  /**
   * @param setting {@code unit}, {@code none} or a metric name
   * @throws IllegalArgumentException for a blank setting
   */
  public static SenmlMetric parse(final String setting) {
    Objects.requireNonNull(setting, "setting");
    if (setting.isBlank()) {
      throw new IllegalArgumentException(
          "must be unit, none or a metric name, not blank (none means no metric)");
    }
    return switch (setting) {
      case "unit" -> UNIT;
      case "none" -> NONE;
      default -> new SenmlMetric(Mode.FIXED, setting);
    };
  }

  /** The metric of a record's value; null for none. */
  public String ofValue(final String unit) {
    return switch (mode) {
      case UNIT -> unit;
      case NONE -> null;
      case FIXED -> fixed;
    };
  }

  /** The metric of a record's sum: never null, so that a sum never joins its values' series. */
  public String ofSum(final String unit) {
    final String value = ofValue(unit);
    return value == null ? SUM : value + SUM_SUFFIX;
  }

  /** The setting's value. */
  @Override
  public String toString() {
    return switch (mode) {
      case UNIT -> "unit";
      case NONE -> "none";
      case FIXED -> fixed;
    };
  }

  @Override
  public boolean equals(final Object other) {
    return other instanceof SenmlMetric that
        && mode == that.mode
        && Objects.equals(fixed, that.fixed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, fixed);
  }
}
