package io.bucketer.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * When the clock of a Kafka Streams contender starts: once it has processed its first record. Group
 * join and task assignment before that are startup. Not when the client turns RUNNING: Kafka
 * Streams reports RUNNING only once every stateful task has restored its stores, and its stateless
 * tasks process meanwhile, so on a backlog part of the work (a sixth of bucketer's repartitioning
 * and two thirds of the windowed aggregate's in a run of 24,000 readings) would be done before the
 * clock started.
 */
final class FirstRecord {

  private FirstRecord() {}

  static void await(
      final Supplier<Map<MetricName, ? extends Metric>> metrics,
      final Supplier<KafkaStreams.State> state,
      final Deadline deadline,
      final String contender)
      throws InterruptedException {
    while (!ClientMetrics.processedAny(metrics.get())) {
      deadline.check(contender + " to process its first reading");
      if (!state.get().isRunningOrRebalancing() && state.get() != KafkaStreams.State.CREATED) {
        throw new IllegalStateException(contender + " stopped: " + state.get());
      }
      TimeUnit.MILLISECONDS.sleep(1);
    }
  }
}
