/**
 * From a record's bytes to readings: the Schema Registry wire format and client (over HTTPS with
 * its own CA and client certificate, basic auth or a bearer token), the reading mapping for any
 * Avro writer schema, for JSON and JSON Schema framed JSON (optionally validated), and, in {@code
 * protobuf}, for Protobuf; and why a record is rejected (the dead-letter reasons). Plain Java,
 * Avro, Protobuf and the schema parsers: no Kafka, no MongoDB.
 */
package io.bucketer.ingest;
