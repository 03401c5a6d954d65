/**
 * {@code bucketer rescale}: changes {@code series.partitions} (the most instances that can share
 * the work) under load, without a hand-made second deployment. The running deployment and a new one
 * with the new count share the input through a handover ({@link io.bucketer.buckets.Handover}): the
 * new one takes every reading from an instant on, the old one the readings before it, late ones
 * included, until its lateness horizon has passed. No window is split, so none is written by both;
 * no state is copied, so nothing of the old layout's format binds the new one. The decisions
 * ({@code RescalePlan}, {@code HandoverProgress}) are plain code over what the cluster said; {@code
 * Rescale} asks the cluster, starts the new layout's consumer group where the old one stands, and
 * says where each deployment stands. Nothing here knows Kafka Streams, the topology or MongoDB.
 */
package io.bucketer.rescale;
