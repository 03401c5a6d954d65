/**
 * The window lifecycle in plain Java behind a small store interface: readings join their open
 * windows, windows close on their series' event time, roll up into coarser ones, take late and
 * resent readings within the lateness horizon, close when a series goes quiet, and expire. Tested
 * without Kafka; {@code topology} adapts it to Kafka Streams' stores.
 *
 * <p>{@link io.bucketer.windows.WindowLifecycle} tells that story; each part with rules of its own
 * is a class of one job: {@code WindowTimes} (when windows close and when they are past the
 * horizon), {@code HeldReadings} (a reading at a time its series already holds), {@code
 * WindowExpiry} (what may be forgotten), {@code QuietSeries} (what the wall clock does to a quiet
 * series) and {@code WindowBuckets} (a window's bucket documents). {@link
 * io.bucketer.windows.WriteBehindWindows} keeps the open windows in memory in front of the store.
 */
package io.bucketer.windows;
