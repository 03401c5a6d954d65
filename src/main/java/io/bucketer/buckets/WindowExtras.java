package io.bucketer.buckets;

/**
 * What a window's documents say of it beyond the computed fields of its readings: the part of the
 * series' time-weighted function that falls in the window ({@link TimeWeighted}), the reading
 * before the window that it carries in, and what they were computed with. The same on every {@code
 * seq} part of a window: a part of a window's readings has no time-weighted average of its own.
 *
 * @param timeWeighted the window's part
 * @param carryIn the series' last reading before the window, when its hold reaches into the window;
 *     else null
 * @param weighting the max gap and interpolation it was computed with
 */
public record WindowExtras(
    TimeWeighted timeWeighted, Measurement carryIn, TimeWeighting weighting) {}
