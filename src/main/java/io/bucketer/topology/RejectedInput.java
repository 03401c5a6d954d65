package io.bucketer.topology;

/**
 * An input record that cannot become a reading, on its way to the dead-letter topic: its original
 * key and value; the reason travels in the record's dead-letter headers.
 */
record RejectedInput(byte[] originalKey, byte[] originalValue) {}
