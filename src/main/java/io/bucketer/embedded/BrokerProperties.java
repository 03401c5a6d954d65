package io.bucketer.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.TreeMap;

/** Server properties for a single-node KRaft broker (combined broker and controller). */
final class BrokerProperties {

  private static final int NODE_ID = 1;
  private static final String CONTROLLER_LISTENER = "CONTROLLER";

  private BrokerProperties() {}

  /** Defaults for one node with a PLAINTEXT listener; {@code extra} entries override them. */
  static Properties of(
      final int brokerPort,
      final int controllerPort,
      final Path logDir,
      final Map<String, String> extra) {
    return of("PLAINTEXT", brokerPort, controllerPort, logDir, extra);
  }

  /**
   * Defaults for one node whose clients and inter-broker traffic use the listener {@code listener}
   * (a security protocol's name, which is also the listener's), while the controller stays on
   * PLAINTEXT over loopback; {@code extra} entries override them.
   */
  static Properties of(
      final String listener,
      final int brokerPort,
      final int controllerPort,
      final Path logDir,
      final Map<String, String> extra) {
    return of(Map.of(listener, brokerPort), listener, controllerPort, logDir, extra);
  }

  /**
   * Defaults for one node with a client listener for each of {@code listeners} (security protocol,
   * which is also the listener's name, to its port), {@code interBroker} among them for the node's
   * traffic with itself, and the controller on PLAINTEXT over loopback.
   */
  static Properties of(
      final Map<String, Integer> listeners,
      final String interBroker,
      final int controllerPort,
      final Path logDir,
      final Map<String, String> extra) {
    final String host = LoopbackPorts.HOST;
    final Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", String.valueOf(NODE_ID));
    // Static voters: a fixed single-member quorum, no dynamic quorum bootstrap needed.
    p.put("controller.quorum.voters", NODE_ID + "@" + host + ":" + controllerPort);
    p.put("controller.listener.names", CONTROLLER_LISTENER);
    final StringJoiner addresses = new StringJoiner(",");
    final StringJoiner protocols = new StringJoiner(",");
    new TreeMap<>(listeners)
        .forEach(
            (listener, port) -> {
              addresses.add(listener + "://" + host + ":" + port);
              protocols.add(listener + ":" + listener);
            });
    p.put("listeners", addresses + "," + CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
    p.put("advertised.listeners", addresses.toString());
    p.put("listener.security.protocol.map", protocols + "," + CONTROLLER_LISTENER + ":PLAINTEXT");
    p.put("inter.broker.listener.name", interBroker);
    p.put("log.dirs", logDir.toString());
    // One node: every internal topic must live with replication factor 1 and min ISR 1,
    // otherwise consumer groups and exactly_once_v2 transactions cannot start.
    p.put("default.replication.factor", "1");
    p.put("min.insync.replicas", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    // Few internal partitions: each one is a log to create and load, which slows the first
    // consumer group / transaction far more than it helps a test.
    p.put("offsets.topic.num.partitions", "5");
    p.put("transaction.state.log.num.partitions", "5");
    p.put("share.coordinator.state.topic.num.partitions", "5");
    // No waiting for more members to join: tests and the demo start one instance.
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("group.streams.initial.rebalance.delay.ms", "0");
    // The 128 MB default dedupe buffer is allocated eagerly and would dominate the heap.
    p.put("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
    // Topics are created on purpose (with their partition counts); a typo must fail loudly.
    p.put("auto.create.topics.enable", "false");
    // The machine has two cores; the defaults are sized for a production server.
    p.put("num.network.threads", "2");
    p.put("num.io.threads", "2");
    p.put("background.threads", "2");
    p.put("num.recovery.threads.per.data.dir", "1");
    p.put("group.coordinator.threads", "1");
    p.putAll(extra);
    final Properties props = new Properties();
    props.putAll(p);
    return props;
  }
}
