package io.bucketer.ingest.sparkplug;

import java.util.HashMap;
import java.util.Map;

/**
 * Finds gaps in each edge node's sequence numbers: an edge node numbers its NBIRTH, NDATA, DBIRTH,
 * DDATA and DDEATH messages 0 to 255, wrapping, and a number other than the one after the last
 * means messages were lost upstream (or reordered) before they reached Kafka. An NBIRTH starts a
 * new session: its number is the new start, never a gap. The first message seen of an edge node
 * starts the count too, so after a restart the first message of each node cannot show a gap.
 *
 * <p>In memory, one entry per edge node seen: not worth a state store write per message, as it only
 * feeds a metric. Not thread safe: one per task.
 */
public final class SparkplugSequence {

  private static final int MODULUS = 256;

  private final Map<String, Integer> lastSeq = new HashMap<>();

  /**
   * Notes a message of {@code edgeNodeId}.
   *
   * @return true when its sequence number is not the one after the node's last
   */
  public boolean isGap(
      final String edgeNodeId, final SparkplugMessageType type, final SparkplugPayload payload) {
    if (!type.isSequenced() || !payload.hasSeq()) {
      return false;
    }
    final int seq = (int) Math.floorMod(payload.seq(), MODULUS);
    final Integer last = lastSeq.put(edgeNodeId, seq);
    return type != SparkplugMessageType.NBIRTH && last != null && seq != (last + 1) % MODULUS;
  }

  /** Forgets every node: what a task rolled back to its last commit must do. */
  public void clear() {
    lastSeq.clear();
  }
}
