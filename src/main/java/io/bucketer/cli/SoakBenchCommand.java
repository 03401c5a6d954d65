package io.bucketer.cli;

import io.bucketer.bench.SoakBench;
import io.bucketer.bench.SoakFaults;
import io.bucketer.buckets.TimeSpans;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bucketer bench soak}: a live fleet for a long run, with faults on a schedule. */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    description =
        "Runs a live fleet for a long time into one processor as deployed, with faults spread over"
            + " the run: the processor killed and started again, MongoDB frozen, the processor"
            + " frozen, a tenant flooding new series, input partitions added, one more instance"
            + " joining and later leaving (with how long a partition waited). Prints the"
            + " processor's memory and state, the topics' sizes, the lag and close -> visible over"
            + " time and whether each stayed flat, then checks every reading against MongoDB and"
            + " the dead-letter topic. Exits 1 unless exact.")
final class SoakBenchCommand implements Callable<Integer> {

  @Option(
      names = "--sensors",
      defaultValue = "20000",
      description = "Sensors reporting at once (default: ${DEFAULT-VALUE}).")
  int sensors;

  @Option(
      names = "--instances",
      defaultValue = "1",
      description =
          "Instances running from the start, each in its own JVM; the faults kill and freeze the"
              + " first, and one more joins and later leaves (default: ${DEFAULT-VALUE}).")
  int instances;

  @Option(
      names = "--duration",
      defaultValue = "1h",
      description = "How long the fleet reports (default: ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--interval",
      defaultValue = "1s",
      description = "Time between two readings of a sensor (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--sample-every",
      defaultValue = "1m",
      description = "Time between two rows (default: ${DEFAULT-VALUE}).")
  String sampleEvery;

  @Option(
      names = "--heap",
      defaultValue = "1g",
      description = "The processor's -Xmx and -Xms (default: ${DEFAULT-VALUE}).")
  String heap;

  @Option(
      names = "--stall",
      defaultValue = "60s",
      description =
          "How long MongoDB, then the processor, stand frozen (default: ${DEFAULT-VALUE}).")
  String stall;

  @Option(
      names = "--flood",
      defaultValue = "2m",
      description = "How long the tenant floods new series (default: ${DEFAULT-VALUE}).")
  String flood;

  @Option(
      names = "--flood-rate",
      defaultValue = "200",
      description = "New series a second while it floods (default: ${DEFAULT-VALUE}).")
  int floodRate;

  @Option(
      names = "--flood-limit",
      defaultValue = "5000/1000",
      description =
          "The flooding tenant's series limits, <active>/<new a minute> (default:"
              + " ${DEFAULT-VALUE}).")
  String floodLimit;

  @Option(
      names = "--partitions-after",
      defaultValue = "8",
      description = "Input partitions once they are added (default: ${DEFAULT-VALUE}).")
  int partitionsAfter;

  @Mixin BenchSetupOptions setup;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (instances < 1) {
      throw new ParameterException(spec.commandLine(), "--instances must be at least 1");
    }
    BenchSetupOptions.silenceLibraries();
    final SoakBench.Result result =
        new SoakBench(
                new SoakBench.Options(
                    sensors,
                    instances,
                    TimeSpans.parse(interval),
                    TimeSpans.parse(duration),
                    TimeSpans.parse(sampleEvery),
                    heap,
                    setup.partitions,
                    new SoakFaults.Strength(
                        TimeSpans.parse(stall), TimeSpans.parse(flood), floodRate, partitionsAfter),
                    floodLimit,
                    setup.processorSettings,
                    BucketerCli.class),
                System.out)
            .run();
    return result.exact() ? 0 : 1;
  }
}
