/**
 * {@code bucketer reprocess}: after a bug fix, makes the processor read its input topic again from
 * an instant, by moving the committed offsets of its consumer group ({@code application.id}) back,
 * with Kafka's admin client alone. The processor then replaces what it wrote: within {@code
 * lateness.horizon} it still holds every reading of the windows, so a reading read again at the
 * same series and time replaces the held one (or is a resend), and nothing is counted twice. The
 * decisions ({@code ReprocessPlan}) are plain code over what the cluster said ({@code
 * PartitionState}); {@code Reprocess} asks the cluster and moves the offsets. Nothing here knows
 * Kafka Streams, the topology or MongoDB.
 */
package io.bucketer.reprocess;
