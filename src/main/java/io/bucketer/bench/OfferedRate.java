package io.bucketer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A rate at which {@code bench latency} offers readings: a number of readings a second, or a share
 * of the processor's capacity ({@code 50%}), which is then either given or measured just before.
 */
public record OfferedRate(double value, boolean shareOfCapacity) {

  public OfferedRate {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("a rate must be positive");
    }
  }

  /**
   * {@code 20000,40000} (readings a second) or {@code 25%,50%,75%} (shares of the capacity), or
   * both mixed.
   */
  public static List<OfferedRate> parseList(final String text) {
    final List<OfferedRate> rates = new ArrayList<>();
    for (final String part : text.split(",")) {
      final String rate = part.strip();
      try {
        rates.add(
            rate.endsWith("%")
                ? new OfferedRate(
                    Double.parseDouble(rate.substring(0, rate.length() - 1)) / 100, true)
                : new OfferedRate(Double.parseDouble(rate), false));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "not a rate: '" + rate + "' (readings a second, such as 20000, or a share such as 50%)",
            e);
      }
    }
    if (rates.isEmpty()) {
      throw new IllegalArgumentException("no rate given");
    }
    return List.copyOf(rates);
  }

  /** Readings a second; {@code capacity} is used only by a share. */
  double readingsPerSecond(final double capacity) {
    return shareOfCapacity ? value * capacity : value;
  }

  /** As a person would write it: {@code 25%} or {@code 20,000/s}. */
  String label() {
    return shareOfCapacity
        ? String.format(Locale.ROOT, "%.0f%%", value * 100)
        : String.format(Locale.ROOT, "%,.0f/s", value);
  }
}
