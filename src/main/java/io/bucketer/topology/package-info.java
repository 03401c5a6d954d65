/**
 * The Kafka Streams topology, built by one method: decode and check the input, key by series,
 * repartition each series' readings in batches, aggregate in the window lifecycle of {@code
 * windows} over RocksDB stores with a write-behind cache, and emit closed buckets and dead letters.
 * With Sparkplug B input, a front of its own first: records keyed and repartitioned by edge node,
 * births kept in a changelogged store, DATA read into readings ({@code SparkplugInput}). Also the
 * interactive queries of its stores for {@code query}. The package that builds the processor's
 * stream processing.
 */
package io.bucketer.topology;
