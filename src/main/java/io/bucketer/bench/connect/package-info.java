/**
 * The Kafka Connect converter that lets MongoDB's sink connector read the benchmark's
 * registry-framed readings with bucketer's own decoder; loaded by the connector's JVM from its own
 * class path.
 */
package io.bucketer.bench.connect;
