/**
 * Guards the processor's local state directory: a marker of the Kafka cluster and topics it belongs
 * to, and the wipe of state left by another cluster or other topics before Kafka Streams starts.
 */
package io.bucketer.state;
