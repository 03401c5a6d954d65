/**
 * The contracts of the topics between the stages: each topic's name with its key and value serdes
 * ({@code TypedTopic}, one per topic in {@code BucketerTopics}), the buckets topic's key and value
 * format (with the older format still read) and headers, and the dead-letter topic's headers and
 * reader. Shared by the topology, which writes them, the sink, which reads them, and the tools and
 * tests; plain Kafka clients' types, never Kafka Streams'.
 */
package io.bucketer.topics;
