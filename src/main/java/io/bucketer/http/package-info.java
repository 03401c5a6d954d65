/**
 * The processor's HTTP endpoints on the JDK's HTTP server: health, readiness and Prometheus
 * metrics, the query API over {@code query} (forwarded to the instance that owns a series), and the
 * chart page. The only package of the processor that serves HTTP.
 */
package io.bucketer.http;
