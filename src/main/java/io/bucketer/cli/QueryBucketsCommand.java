package io.bucketer.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer query buckets}: a series' windows of one granularity over a range. */
@Command(
    name = "buckets",
    mixinStandardHelpOptions = true,
    description = {
      "The windows of one granularity that have readings in [from, to), with their count, min,"
          + " avg, max and sum; windows not closed yet are marked open."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  bucketer query buckets --sensor sensor-0001 --metric temperature \\",
      "      --granularity 1m --last 15m"
    })
final class QueryBucketsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin QueryOptions query;

  @Option(
      names = "--granularity",
      required = true,
      paramLabel = "SIZE",
      description = "One of the processor's granularities: 1m, 1h.")
  String granularity;

  @Override
  public Integer call() {
    return query.ask(spec, "buckets", Map.of("granularity", granularity), BucketsTable::format);
  }
}
