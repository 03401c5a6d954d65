/**
 * {@code bucketer backfill}: builds a rolled-up granularity (one newly added to {@code
 * granularities}, or a stored one to repair) for a past range, from the documents of the finer
 * granularity it is rolled up from. It plans the targets and their ranges ({@code BackfillPlan}),
 * reads the source windows through the query side's reader ({@code StoredWindows}), builds each
 * window as the stream does, with the stream's own merge and document cutting ({@code
 * RolledUpWindow}), and writes through the sink's own writer ({@code MongoOutput}), whose revision
 * guard makes it idempotent and safe beside the running stream. With {@code --repair} it replaces
 * stored windows whose documents differ, whatever their revision ({@code
 * MongoBucketWriter.repair}).
 */
package io.bucketer.backfill;
