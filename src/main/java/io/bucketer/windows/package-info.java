/**
 * The window lifecycle in plain Java behind a small store interface: readings join their open
 * windows, windows close on their series' event time, roll up into coarser ones, take late and
 * resent readings within the lateness horizon, close when a series goes quiet, and expire. Tested
 * without Kafka; {@code topology} adapts it to Kafka Streams' stores.
 */
package io.bucketer.windows;
