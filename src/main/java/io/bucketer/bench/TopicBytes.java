package io.bucketer.bench;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The bytes each topic was sent, from the broker's own meter ({@code
 * kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=...}, its count since the broker
 * started): the record batches producers sent, as the broker received them, before replication.
 * Transaction markers are appended by the broker itself, not produced, and are not in it. Read over
 * JMX in this JVM, where the benchmarks' broker runs ({@link
 * io.bucketer.embedded.EmbeddedKafkaBroker}).
 */
final class TopicBytes {

  private static final String PATTERN = "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,*";

  private TopicBytes() {}

  /** Bytes sent so far to each topic the broker has a meter for; empty without one in this JVM. */
  static Map<String, Long> read() {
    final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    final Map<String, Long> bytes = new TreeMap<>();
    try {
      for (final ObjectName name : server.queryNames(new ObjectName(PATTERN), null)) {
        final String topic = name.getKeyProperty("topic");
        if (topic != null) {
          bytes.put(topic, ((Number) server.getAttribute(name, "Count")).longValue());
        }
      }
    } catch (JMException e) {
      throw new IllegalStateException("cannot read the broker's BytesInPerSec meters", e);
    }
    return bytes;
  }
}
