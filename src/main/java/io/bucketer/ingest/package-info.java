/**
 * From a record's bytes to readings: the Schema Registry wire format and client (over HTTPS with
 * its own CA and client certificate, basic auth or a bearer token), the reading mapping for any
 * Avro writer schema and for JSON, and why a record is rejected (the dead-letter reasons). Plain
 * Java and Avro: no Kafka, no MongoDB.
 */
package io.bucketer.ingest;
