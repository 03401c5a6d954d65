package io.bucketer.topology;

import io.bucketer.avro.Reading;

/** The outcome of decoding one input record: a reading, or bytes for the dead-letter topic. */
sealed interface Ingested {

  record Accepted(Reading reading) implements Ingested {}

  /** The original key and value; the reason travels in the record's dead-letter headers. */
  record Rejected(byte[] originalKey, byte[] originalValue) implements Ingested {}
}
