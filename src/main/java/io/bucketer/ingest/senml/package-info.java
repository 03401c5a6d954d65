/**
 * SenML (RFC 8428) packs in JSON or CBOR as input: a pack's records resolved as the RFC defines
 * (base name, time, unit, value and sum, applied in order), each numeric value or sum one reading,
 * and the encoder the simulator writes packs with. Plain Java and Jackson: no Kafka, no MongoDB.
 */
package io.bucketer.ingest.senml;
