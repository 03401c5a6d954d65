/**
 * The processor as one application: reads the settings, creates the topics, wipes foreign local
 * state, builds the topology, starts Kafka Streams, the MongoDB sink and the HTTP endpoints, and
 * closes them in order. It wires the other packages together and owns none of their logic; it may
 * use Kafka Streams to start and stop it, and reaches MongoDB only through the sink and the query
 * package.
 */
package io.bucketer.app;
