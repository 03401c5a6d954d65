/**
 * Sparkplug B (input.format=sparkplug-b), plain Java: the MQTT topic a bridge keeps with each
 * record ({@link SparkplugTopic}), the protobuf payload read as a dynamic message ({@link
 * SparkplugPayloads}), the alias maps that BIRTH messages define ({@link SparkplugBirth}), the
 * readings of DATA messages ({@link SparkplugReadings}), gaps in an edge node's sequence numbers
 * ({@link SparkplugSequence}), and payloads written for the simulator ({@link SparkplugMessages}).
 * The state between messages (the births) is kept by the topology's Sparkplug processor in a
 * changelogged store; nothing here holds it.
 */
package io.bucketer.ingest.sparkplug;
