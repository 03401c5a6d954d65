package io.bucketer.reprocess;

import java.util.OptionalLong;

/**
 * What the cluster says of one partition of the input topic, as a reprocessing from an instant
 * needs it.
 *
 * @param logStart the earliest offset the partition still holds (more than 0 once retention deleted
 *     some)
 * @param end the offset the next record will take
 * @param committed the consumer group's committed offset; empty when it committed none
 * @param fromOffset the earliest offset whose timestamp is at or after the instant; empty when no
 *     record is
 * @param fromTimestamp that record's timestamp
 */
public record PartitionState(
    int partition,
    long logStart,
    long end,
    OptionalLong committed,
    OptionalLong fromOffset,
    OptionalLong fromTimestamp) {}
