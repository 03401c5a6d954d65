package io.bucketer.deadletters;

/**
 * The dead-letter topic does not exist (yet): nothing was ever set aside, or another name is set.
 */
public final class DeadLetterTopicMissingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public DeadLetterTopicMissingException(final String topic) {
    super(
        "dead-letter topic "
            + topic
            + " does not exist: run creates it at start (is dead.letter.topic the processor's?)");
  }
}
