package io.bucketer.buckets;

/** One reading's time (UTC epoch milliseconds) and value, as stored inside a bucket. */
public record Measurement(long timestamp, double value) {}
