package io.bucketer.state;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Whom local state belongs to: a Kafka cluster, and the topics the state was derived from, each by
 * its id. Names are not enough: a cluster replaced behind the same bootstrap address keeps the
 * topic names, and a topic deleted and created again keeps its name, but neither keeps its id.
 *
 * @param clusterId the Kafka cluster id ({@code Admin.describeCluster().clusterId()})
 * @param topicIds topic name to topic id, as Kafka prints it (base64), in name order
 */
public record StateOwner(String clusterId, Map<String, String> topicIds) {

  public StateOwner {
    Objects.requireNonNull(clusterId, "clusterId");
    topicIds = Collections.unmodifiableMap(new TreeMap<>(topicIds));
  }
}
