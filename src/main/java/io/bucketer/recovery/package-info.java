/**
 * How the processor comes back from a stall: a stretch of wall time in which none of its threads
 * ran (a long GC pause, a starved VM, a paused container). It notices the stall from the gap it
 * leaves between a watch's ticks, knows which of Kafka's timeouts the stall outlived, and says in
 * one line, on {@code /ready} and in the log at most once a minute, what the processor does until
 * it works again: rejoining its group, restoring state from the changelogs, its first commit. A
 * processor that processes but cannot commit, its transactions aborted one after the other, is
 * found the same way and restarted with a longer transaction timeout. It reads Kafka Streams only
 * through its public API (state, client metrics, the restore listener).
 */
package io.bucketer.recovery;
