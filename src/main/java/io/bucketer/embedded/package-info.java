/**
 * In-process infrastructure for the {@code demo} subcommand and the integration tests: a real
 * single-node Kafka broker and a MongoDB wire-protocol stand-in, both on free loopback ports.
 */
package io.bucketer.embedded;
