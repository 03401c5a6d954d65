package io.bucketer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** JSON values as a person reads them; --json keeps the exact ones. */
final class Figures {

  private static final int DECIMALS = 4;

  private Figures() {}

  /**
   * Integers as they are, other numbers to 4 decimals without trailing zeros, a reading ({@code
   * {timestamp, value}}) as "value at timestamp", a quantity ({@code {value, unit}}) as "value
   * unit", another object (quantiles) as "name value, name value", null as "-".
   */
  static String of(final JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "-";
    }
    if (value.isObject() && value.has("timestamp") && value.has("value")) {
      return of(value.get("value")) + " at " + value.get("timestamp").asText();
    }
    if (value.isObject() && value.has("value") && value.has("unit")) {
      return of(value.get("value")) + " " + value.get("unit").asText();
    }
    if (value.isObject()) {
      final List<String> fields = new ArrayList<>();
      value.fields().forEachRemaining(f -> fields.add(f.getKey() + " " + of(f.getValue())));
      return String.join(", ", fields);
    }
    if (value.isIntegralNumber()) {
      return value.asText();
    }
    if (value.isNumber()) {
      return value
          .decimalValue()
          .setScale(DECIMALS, RoundingMode.HALF_EVEN)
          .stripTrailingZeros()
          .toPlainString();
    }
    return value.asText();
  }
}
