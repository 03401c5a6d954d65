/**
 * {@code bucketer resink}: rebuilds the bucket documents of a MongoDB database (a restored one, or
 * one on a new cluster) from the compacted buckets topic. It reads the topic whole with a consumer
 * of its own, outside any consumer group ({@code BucketsTopicReader}), decides for each bucket
 * whether it is to be written ({@code ResinkPlan}: selected, not past its retention), and writes it
 * through the sink's own writer ({@code MongoTarget}), whose revision guard makes the rebuild
 * idempotent and safe beside a running sink. It copies buckets as the topic holds them: it never
 * computes one.
 */
package io.bucketer.resink;
