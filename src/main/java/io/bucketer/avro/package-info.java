/**
 * The Avro records generated from {@code schemas/*.avsc} at build time: the {@code Reading} of
 * bucketer's own input schema, and the closed buckets of the buckets topic ({@code avro.v1}: the
 * older format, read only). Only this file is written by hand.
 */
package io.bucketer.avro;
