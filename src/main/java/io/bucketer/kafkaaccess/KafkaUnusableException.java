package io.bucketer.kafkaaccess;

/**
 * Kafka cannot be used as configured, and no retry will change that (TLS trust, a refused client
 * certificate, failed authentication), said in {@link KafkaFailures}'s one line. It carries no
 * cause: the line is the whole story, and nothing should print a trace of it.
 */
public final class KafkaUnusableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public KafkaUnusableException(final String line) {
    super(line, null, false, false);
  }
}
