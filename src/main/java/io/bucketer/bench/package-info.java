/**
 * The benchmark harnesses behind {@code bucketer bench} and {@code bucketer bench memory}, and the
 * peers they measure bucketer against: a plain consumer, a Kafka Streams floor, MongoDB's sink
 * connector and Kafka Streams' own windowed aggregate. A tool, not part of the processor: it may
 * use everything, the embedded broker and the MongoDB stand-in included.
 */
package io.bucketer.bench;
