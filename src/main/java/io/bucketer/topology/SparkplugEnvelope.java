package io.bucketer.topology;

/**
 * A Sparkplug B input record on its way from its input partition to its edge node's task, keyed by
 * edge node: its MQTT topic, its original key and value (what a dead letter keeps), and where it
 * was read, so that a dead letter from the edge node's task names the input record rather than the
 * repartition topic.
 */
record SparkplugEnvelope(
    String mqttTopic,
    byte[] originalKey,
    byte[] originalValue,
    String sourceTopic,
    int sourcePartition,
    long sourceOffset) {}
