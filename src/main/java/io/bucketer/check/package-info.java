/**
 * {@code bucketer check}: with the settings of {@code run}, and without processing anything, asks
 * each dependency what {@code run} will need of it (Kafka's topics and their configuration, the
 * registry's latest input schema against the {@code input.*} mapping, MongoDB's collections and
 * indexes) and reports each answer in one line. Each probe lives with the code that knows its
 * dependency (topics, ingest, sink); this package only runs them and reports.
 */
package io.bucketer.check;
