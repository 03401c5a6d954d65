package io.bucketer.buckets;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A setting given per metric, {@code <metric>=<value>,...} (such as {@code max.gap.metrics}'s
 * {@code door=1d,power=15m}): one way to read every such list, so that each says the same things
 * about the same mistakes.
 */
final class PerMetric {

  private PerMetric() {}

  /**
   * The values of {@code text} by metric, in the order given; empty text means none.
   *
   * @param form the list's form, for the message, such as {@code <metric>=<span>, such as door=1d}
   * @param value reads one value, throwing {@link IllegalArgumentException} with a message that
   *     names what it cannot read
   * @throws IllegalArgumentException with a message that names the part it cannot read, or a metric
   *     given twice
   */
  static <T> Map<String, T> parse(
      final String text, final String form, final Function<String, T> value) {
    final Map<String, T> values = new LinkedHashMap<>();
    for (final String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      // The last '=': a value has none, a metric name might.
      final int equals = part.lastIndexOf('=');
      final String metric = equals < 0 ? "" : part.substring(0, equals).trim();
      if (metric.isEmpty()) {
        throw new IllegalArgumentException("'" + part.trim() + "' is not " + form);
      }
      if (values.put(metric, value.apply(part.substring(equals + 1).trim())) != null) {
        throw new IllegalArgumentException(metric + " is given twice");
      }
    }
    return values;
  }
}
