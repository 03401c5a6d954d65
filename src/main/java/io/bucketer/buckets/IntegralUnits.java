package io.bucketer.buckets;

import java.util.Set;

/**
 * The unit in which the query API gives each series' integral: value·seconds, as documents store
 * it, or value·hours for metrics named in {@code integral.unit.metrics} (a power meter's kW
 * integrate to kWh).
 */
public record IntegralUnits(Set<String> hoursMetrics) {

  /** value·s for every metric. */
  public static final IntegralUnits SECONDS = new IntegralUnits(Set.of());

  /** A unit of an integral over time. */
  public enum Unit {
    SECONDS("value·s", 1_000),
    HOURS("value·h", 3_600_000);

    private final String label;
    private final long millis;

    Unit(final String label, final long millis) {
      this.label = label;
      this.millis = millis;
    }

    /** {@code value·s} or {@code value·h}, as the API names it. */
    public String label() {
      return label;
    }

    /** An integral in value·ms in this unit. */
    public double of(final double valueMillis) {
      return valueMillis / millis;
    }
  }

  public IntegralUnits {
    hoursMetrics = Set.copyOf(hoursMetrics);
  }

  /** The unit of {@code series}' integral: hours when its metric is named, else seconds. */
  public Unit of(final SeriesKey series) {
    return series.metric() != null && hoursMetrics.contains(series.metric())
        ? Unit.HOURS
        : Unit.SECONDS;
  }

  /**
   * Parses {@code <metric>=hours,...}, such as {@code power=hours,energy=hours}; empty means none.
   * Only {@code hours} is a unit to name: seconds is what a metric not named has.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static IntegralUnits parse(final String text) {
    return new IntegralUnits(
        PerMetric.parse(
                text,
                "<metric>=hours, such as power=hours",
                unit -> {
                  if (!"hours".equals(unit)) {
                    throw new IllegalArgumentException(
                        "'" + unit + "' is not <metric>=hours, such as power=hours");
                  }
                  return unit;
                })
            .keySet());
  }
}
