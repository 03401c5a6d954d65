package io.bucketer.query;

import io.bucketer.sketch.ValueSketch;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The quantiles an answer gives, each named by its percentile ({@code p50}, {@code p99.9}): p50,
 * p90, p95 and p99 unless a request asks for others ({@code quantiles=0.5,0.999}).
 *
 * @param levels each between 0 and 1, in the order asked, without two of one name
 */
public record Quantiles(List<Double> levels) {

  /** More than a chart or a table shows; bounds the work one request asks for. */
  public static final int MAX_LEVELS = 20;

  /** p50, p90, p95 and p99. */
  public static final Quantiles DEFAULT = new Quantiles(List.of(0.5, 0.9, 0.95, 0.99));

  /** Longer than any level written by hand (0.99999); refused before it is parsed. */
  private static final int MAX_LEVEL_LENGTH = 24;

  private static final String FORM =
      "quantiles must be up to "
          + MAX_LEVELS
          + " comma-separated numbers from 0 to 1, such as 0.5,0.95,0.999";

  public Quantiles {
    levels = List.copyOf(levels);
  }

  /**
   * Parses {@code 0.5,0.95,0.999}: decimal numbers from 0 to 1, at most {@link #MAX_LEVELS}; a
   * level named twice ({@code 0.5,0.50}) is given once.
   *
   * @throws IllegalArgumentException with a message for the client that says which one is wrong
   */
  public static Quantiles parse(final String text) {
    final String[] items = text.split(",", -1);
    if (items.length > MAX_LEVELS) {
      throw new IllegalArgumentException(FORM + "; " + items.length + " were given");
    }
    final Map<String, Double> byLabel = new LinkedHashMap<>();
    for (int i = 0; i < items.length; i++) {
      final double level = level(items[i].strip(), i + 1);
      byLabel.putIfAbsent(label(level), level);
    }
    return new Quantiles(new ArrayList<>(byLabel.values()));
  }

  /**
   * One level. Parsed as a plain decimal ({@link BigDecimal}), not by {@link Double#parseDouble},
   * which would also take {@code NaN}, {@code 0x1p-1} and {@code 1d}.
   */
  private static double level(final String item, final int position) {
    final String which = FORM + "; number " + position + " is not";
    if (item.isEmpty() || item.length() > MAX_LEVEL_LENGTH) {
      throw new IllegalArgumentException(which);
    }
    final BigDecimal level;
    try {
      level = new BigDecimal(item);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(which, e);
    }
    if (level.signum() < 0 || level.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException(which);
    }
    return level.doubleValue();
  }

  /**
   * The name of a level in answers: 0.5 is {@code p50}, 0.999 is {@code p99.9}, 1 is {@code p100}.
   */
  public static String label(final double level) {
    return "p" + BigDecimal.valueOf(level).movePointRight(2).stripTrailingZeros().toPlainString();
  }

  /** The levels as a request gives them: {@code 0.5,0.9,0.95,0.99}. */
  public String parameter() {
    final List<String> texts = new ArrayList<>();
    levels.forEach(
        level -> texts.add(BigDecimal.valueOf(level).stripTrailingZeros().toPlainString()));
    return String.join(",", texts);
  }

  /**
   * Each level's quantile of {@code sketch}, by label, in the order asked; null values when the
   * sketch holds none (a range or a point without readings).
   */
  public Map<String, Double> of(final ValueSketch sketch) {
    final Map<String, Double> found = new LinkedHashMap<>();
    for (final double level : levels) {
      final OptionalDouble quantile = sketch.quantile(level);
      found.put(label(level), quantile.isPresent() ? quantile.getAsDouble() : null);
    }
    return found;
  }
}
