package io.bucketer.query;

import java.time.Duration;

/**
 * What one request may ask of the query API: every request reads documents in proportion to its
 * range (statistics) or its points (charts), so both are bounded.
 *
 * @param maxRange the longest range of one request
 * @param maxPoints the most windows one chart request may cover
 * @param timeout how long one read may wait for MongoDB, or a forwarded request for its instance
 */
public record QueryLimits(Duration maxRange, int maxPoints, Duration timeout) {}
