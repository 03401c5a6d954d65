package io.bucketer.cli;

import io.bucketer.bench.LivePeer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bucketer bench peer}: one of bucketer's peers, run live until stopped, in the JVM that
 * {@code bench live} starts for it. Hidden: only the benchmark starts it.
 */
@Command(
    name = "peer",
    hidden = true,
    mixinStandardHelpOptions = true,
    description = {
      "Runs a peer of bucketer (streams-floor or windowed-aggregate) on the Kafka Streams settings",
      "that the configuration gives a processor, until stopped; bench live starts it."
    })
final class PeerBenchCommand implements Callable<Integer> {

  @Option(names = "--kind", required = true, description = "streams-floor or windowed-aggregate.")
  String kind;

  @Mixin ConfigOptions configOptions;

  @Override
  public Integer call() throws Exception {
    LivePeer.run(LivePeer.Kind.parse(kind), configOptions.load());
    return 0;
  }
}
