/**
 * The contracts of the topics between the stages: the buckets topic's key and value format (with
 * the older format still read) and headers, and the dead-letter topic's headers and reader. Shared
 * by the topology, which writes them, and the sink, which reads them.
 */
package io.bucketer.topics;
