package io.bucketer.simulate;

import io.bucketer.avro.Reading;

/** Turns a generated reading into the value of the Kafka record a gateway would send for it. */
@FunctionalInterface
public interface MessageEncoder {

  byte[] encode(Reading reading);
}
