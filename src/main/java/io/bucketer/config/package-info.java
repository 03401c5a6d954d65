/**
 * The processor's settings: one Kafka {@code ConfigDef} with every key, its default, validation and
 * documentation (the README's configuration reference is generated from it), and typed getters that
 * build the settings' values (granularities, the reading mapping, retention). It may use the
 * MongoDB driver only to validate a connection string.
 */
package io.bucketer.config;
