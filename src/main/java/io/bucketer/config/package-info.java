/**
 * The processor's settings: each concern declares its own (Kafka, input, windows, MongoDB, HTTP),
 * with every key, its default, validation and documentation in a Kafka {@code ConfigDef}, and typed
 * getters that build the settings' values (granularities, the reading mapping, retention). {@code
 * BucketerConfig} composes them into one definition, from which the README's configuration
 * reference is generated. It may use the MongoDB driver only to validate a connection string.
 */
package io.bucketer.config;
