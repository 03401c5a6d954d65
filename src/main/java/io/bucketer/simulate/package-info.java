/**
 * IoT gateways played back: a deterministic generator of readings and a producer that sends them,
 * as bucketer's own {@code Reading} or a gateway's multi-value schema, in Avro or JSON. Used by
 * {@code simulate}, {@code demo}, the benchmarks and the tests.
 */
package io.bucketer.simulate;
