package io.bucketer.cli;

import io.bucketer.query.GapFill;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bucketer query buckets}: a series' windows of one granularity over a range, or points
 * merged from them at a resolution the processor picks for a number of points or an interval.
 */
@Command(
    name = "buckets",
    mixinStandardHelpOptions = true,
    description = {
      "The windows of one granularity that have readings in [from, to), with their count, min,"
          + " avg, max and sum; windows not closed yet are marked open. Without --granularity,"
          + " the processor picks one for --max-data-points or --interval and merges its windows"
          + " into points that wide; --fill shows the points without readings. Each window's"
          + " p50, p95 and p99, or the --quantiles asked; its resends and late readings, and,"
          + " where the metric has an expected.interval (configured or learned), its"
          + " completeness."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  bucketer query buckets --sensor sensor-0001 --metric temperature \\",
      "      --granularity 1m --last 15m",
      "  bucketer query buckets --sensor sensor-0001 --metric temperature \\",
      "      --max-data-points 96 --fill previous --last 1d"
    })
final class QueryBucketsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin QueryOptions query;

  @Option(
      names = "--granularity",
      paramLabel = "SIZE",
      description = "One of the processor's granularities: 1m, 1h.")
  String granularity;

  @Option(
      names = "--max-data-points",
      paramLabel = "N",
      description = "Without --granularity: at most about N points over the range.")
  Integer maxDataPoints;

  @Option(
      names = "--interval",
      paramLabel = "SPAN",
      converter = QueryRange.SpanConverter.class,
      description = "Without --granularity: points at least SPAN wide: 90s, 15m, 1h.")
  Duration interval;

  @Option(
      names = "--fill",
      paramLabel = "RULE",
      description = {
        "Points without readings: none (left out, the default), null, previous or linear."
      })
  String fill;

  @Override
  public Integer call() {
    if (granularity == null && maxDataPoints == null && interval == null) {
      throw new ParameterException(
          spec.commandLine(), "give --granularity, or --max-data-points or --interval");
    }
    if (maxDataPoints != null && maxDataPoints < 1) {
      throw new ParameterException(spec.commandLine(), "--max-data-points must be at least 1");
    }
    if (fill != null) {
      try {
        GapFill.parse(fill);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
      }
    }
    final Map<String, String> parameters = new LinkedHashMap<>();
    if (granularity != null) {
      parameters.put("granularity", granularity);
    }
    if (maxDataPoints != null) {
      parameters.put("maxDataPoints", maxDataPoints.toString());
    }
    if (interval != null) {
      parameters.put("interval_ms", Long.toString(interval.toMillis()));
    }
    if (fill != null) {
      parameters.put("fill", fill);
    }
    // Three columns, not the API's four, so that the table fits a terminal; --quantiles overrides.
    parameters.put("quantiles", "0.5,0.95,0.99");
    return query.ask(spec, "buckets", parameters, BucketsTable::format);
  }
}
