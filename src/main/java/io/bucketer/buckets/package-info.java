/**
 * The domain in plain Java: series, granularities, measurements, the computed fields of a window
 * ({@code BucketStats}) and the part of its series' time-weighted function that falls in it ({@code
 * TimeWeighted}), closed buckets and their layout into documents of capped size, rollup plans,
 * retention, and the names of the bucket documents in MongoDB. Depends on no other package of
 * bucketer and on no library: everything else builds on it.
 */
package io.bucketer.buckets;
