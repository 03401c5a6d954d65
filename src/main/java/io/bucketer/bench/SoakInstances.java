package io.bucketer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The soak's instances after the first that run from the start ({@link
 * SoakBench.Options#instances()}; none by default): the same application, each with its own {@code
 * instance.id}, HTTP port and state directory, as the other pods of a StatefulSet. The faults leave
 * them be: they are there so that the instance that joins and leaves is a third, or a fourth, as a
 * fleet grows.
 */
final class SoakInstances implements AutoCloseable {

  private final List<SoakProcessor> instances = new ArrayList<>();

  /**
   * @param httpPorts the soak's ports, the first instance's first: instance {@code n} takes the
   *     {@code n}th
   */
  SoakInstances(
      final SoakBench.Options options,
      final Map<String, String> firstSettings,
      final List<Integer> httpPorts,
      final Path work,
      final Path logs) {
    for (int place = 2; place <= options.instances(); place++) {
      final int httpPort = httpPorts.get(place - 1);
      final Path stateDir = work.resolve("state-" + place);
      instances.add(
          new SoakProcessor(
              "instance-" + place,
              options.cli(),
              SoakBench.instanceSettings(firstSettings, "soak-" + place, httpPort, stateDir),
              options.heap(),
              httpPort,
              stateDir,
              logs));
    }
  }

  /** Starts each, one after the other, each once it serves its metrics. */
  void start() {
    instances.forEach(SoakProcessor::start);
  }

  /** Fails the soak if one of them died although no fault touched it. */
  void failIfOneDied() {
    for (final SoakProcessor instance : instances) {
      if (instance.diedOnItsOwn()) {
        throw new IllegalStateException(
            "an instance that ran from the start died on its own; see " + instance.log());
      }
    }
  }

  @Override
  public void close() {
    instances.forEach(SoakProcessor::close);
  }
}
