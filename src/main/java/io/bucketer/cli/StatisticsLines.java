package io.bucketer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A statistics answer as {@code key: value} lines, values aligned, every field in the API's order:
 * a field the API adds later shows up without a change here.
 */
final class StatisticsLines {

  private StatisticsLines() {}

  static String format(final JsonNode body) {
    if (!body.isObject()) {
      throw new IllegalArgumentException("not a statistics answer: " + body);
    }
    final List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
    body.fields().forEachRemaining(fields::add);
    final int width = fields.stream().mapToInt(f -> f.getKey().length() + 1).max().orElse(1);
    final StringBuilder lines = new StringBuilder();
    for (final Map.Entry<String, JsonNode> field : fields) {
      lines.append(
          String.format(
              "%-" + width + "s %s%n", field.getKey() + ":", Figures.of(field.getValue())));
    }
    return lines.toString();
  }
}
