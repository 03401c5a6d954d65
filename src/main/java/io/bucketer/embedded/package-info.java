/**
 * Local infrastructure for the {@code demo} and {@code bench} subcommands and the integration
 * tests: a real single-node Kafka broker, a MongoDB wire-protocol stand-in and a registry endpoint,
 * on free loopback ports, and the processor itself in a JVM of its own.
 */
package io.bucketer.embedded;
