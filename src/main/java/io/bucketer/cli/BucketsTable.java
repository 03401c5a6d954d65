package io.bucketer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.bucketer.buckets.TimeSpans;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A buckets answer as an aligned table, one window (or point) per line in start order, the windows
 * not closed yet marked {@code open}: their figures still change; points without readings marked
 * with the rule that filled them. The time-weighted average and the coverage (as a percentage) are
 * blank where the answer has none: windows written before they were kept, and open ones; so are the
 * quantiles, one column each of those the answer names (p50, p95, p99 as the command asks). Then,
 * from a processor that answers them, each point's resends and late readings (blank where unknown:
 * documents written before they were counted) and, where the metric has an expected interval
 * (configured or learned), its completeness as a percentage.
 */
final class BucketsTable {

  private static final String[] FIELDS = {"count", "min", "avg", "max", "sum"};
  private static final int TWA = FIELDS.length + 1;
  private static final int COVERAGE = TWA + 1;
  private static final int FIRST_QUANTILE = COVERAGE + 1;

  private BucketsTable() {}

  static String format(final JsonNode body) {
    final JsonNode buckets = body.path("buckets");
    if (!buckets.isArray()) {
      throw new IllegalArgumentException("not a buckets answer: " + body);
    }
    final StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            "%s%s, %s buckets in [%s, %s)%n",
            body.path("sensor_id").asText(),
            body.path("metric").isTextual() ? " " + body.path("metric").asText() : "",
            body.path("granularity").asText(),
            body.path("from").asText(),
            body.path("to").asText()));
    final List<String> quantiles = quantileNames(buckets);
    final boolean counts = anyHas(buckets, "resends");
    final boolean completeness = anyKnown(buckets, "completeness");
    final List<String> headers =
        new ArrayList<>(List.of("start", "count", "min", "avg", "max", "sum", "twa", "coverage"));
    headers.addAll(quantiles);
    if (counts) {
      headers.addAll(List.of("resends", "late"));
    }
    if (completeness) {
      headers.add("completeness");
    }
    headers.add("");
    final List<String[]> rows = new ArrayList<>();
    rows.add(headers.toArray(String[]::new));
    int open = 0;
    int filled = 0;
    for (final JsonNode bucket : buckets) {
      final String[] row = new String[headers.size()];
      row[0] = bucket.path("start").asText();
      for (int i = 0; i < FIELDS.length; i++) {
        row[i + 1] = Figures.of(bucket.get(FIELDS[i]));
      }
      row[TWA] = known(bucket.get("twa")) ? Figures.of(bucket.get("twa")) : "";
      row[COVERAGE] = known(bucket.get("coverage")) ? percent(bucket.get("coverage")) : "";
      for (int i = 0; i < quantiles.size(); i++) {
        final JsonNode quantile = bucket.path("quantiles").get(quantiles.get(i));
        row[FIRST_QUANTILE + i] = known(quantile) ? Figures.of(quantile) : "";
      }
      int column = FIRST_QUANTILE + quantiles.size();
      if (counts) {
        row[column++] = known(bucket.get("resends")) ? Figures.of(bucket.get("resends")) : "";
        row[column++] =
            known(bucket.get("late_readings")) ? Figures.of(bucket.get("late_readings")) : "";
      }
      if (completeness) {
        row[column] = known(bucket.get("completeness")) ? percent(bucket.get("completeness")) : "";
      }
      final boolean isOpen = bucket.path("open").asBoolean(false);
      final boolean isFilled = bucket.path("filled").isTextual();
      row[row.length - 1] =
          isOpen ? "open" : isFilled ? "filled: " + bucket.get("filled").asText() : "";
      open += isOpen ? 1 : 0;
      filled += isFilled ? 1 : 0;
      rows.add(row);
    }
    if (buckets.isEmpty()) {
      text.append(String.format("no window of the range has readings%n"));
    } else {
      appendAligned(text, rows);
    }
    text.append(
        String.format(
            "%d buckets (%d open%s); documents_read: %s, state_windows_read: %s%n",
            buckets.size(),
            open,
            filled > 0 ? ", " + filled + " filled" : "",
            Figures.of(body.get("documents_read")),
            Figures.of(body.get("state_windows_read"))));
    final JsonNode resolution = body.path("resolution");
    if (resolution.isObject()) {
      text.append(
          String.format(
              "read: %s windows from %s, %s a point%s%n",
              resolution.path("granularity").asText(),
              resolution.path("read_from").asText(),
              TimeSpans.format(resolution.path("point_ms").asLong()),
              resolution.path("widened").asBoolean(false)
                  ? ", widened to stay within query.max.points"
                  : ""));
    }
    return text.toString();
  }

  /** The quantiles the answer names, from the first point that has them; none if no point has. */
  private static List<String> quantileNames(final JsonNode buckets) {
    final List<String> names = new ArrayList<>();
    for (final JsonNode bucket : buckets) {
      if (bucket.path("quantiles").isObject()) {
        bucket.get("quantiles").fieldNames().forEachRemaining(names::add);
        break;
      }
    }
    return names;
  }

  private static boolean anyHas(final JsonNode buckets, final String field) {
    for (final JsonNode bucket : buckets) {
      if (bucket.has(field)) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyKnown(final JsonNode buckets, final String field) {
    for (final JsonNode bucket : buckets) {
      if (known(bucket.get(field))) {
        return true;
      }
    }
    return false;
  }

  private static boolean known(final JsonNode value) {
    return value != null && value.isNumber();
  }

  /** A fraction from 0 to 1 as a percentage to one decimal: 0.98333 as 98.3%, 1 as 100%. */
  private static String percent(final JsonNode fraction) {
    return fraction
            .decimalValue()
            .movePointRight(2)
            .setScale(1, RoundingMode.HALF_EVEN)
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }

  /** The start left-aligned, the figures right-aligned, two spaces between columns. */
  private static void appendAligned(final StringBuilder text, final List<String[]> rows) {
    final int[] widths = new int[rows.get(0).length];
    for (final String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (final String[] row : rows) {
      final StringBuilder line = new StringBuilder(String.format("%-" + widths[0] + "s", row[0]));
      for (int i = 1; i < row.length - 1; i++) {
        line.append(String.format("  %" + widths[i] + "s", row[i]));
      }
      line.append("  ").append(row[row.length - 1]);
      text.append(line.toString().stripTrailing()).append(String.format("%n"));
    }
  }
}
