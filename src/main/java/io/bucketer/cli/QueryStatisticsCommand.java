package io.bucketer.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bucketer query statistics}: count, sum, avg, min, max of a series over a range. */
@Command(
    name = "statistics",
    mixinStandardHelpOptions = true,
    description = {
      "Count, sum, avg, min and max of one series over [from, to), its time-weighted average,"
          + " coverage and quantiles (p50, p90, p95 and p99, or the --quantiles asked), its"
          + " resends and late readings, the readings expected and its completeness (where the"
          + " metric has an expected.interval, configured or learned), and the documents read."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  bucketer query statistics --sensor sensor-0001 --metric temperature \\",
      "      --from 2026-11-22T14:00:00Z --to 2026-11-22T15:00:00Z"
    })
final class QueryStatisticsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin QueryOptions query;

  @Override
  public Integer call() {
    return query.ask(spec, "statistics", Map.of(), StatisticsLines::format);
  }
}
