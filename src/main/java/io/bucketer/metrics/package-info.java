/**
 * The processor's own meters (Micrometer), named once here: readings by outcome, dead letters,
 * buckets emitted and written, open windows, state operations, readiness (for alerts), the
 * process's resources.
 */
package io.bucketer.metrics;
