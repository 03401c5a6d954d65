package io.bucketer.sink;

import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a command that writes through {@link MongoBucketWriter} outside the processor ({@code
 * resink}, {@code backfill}) waits for MongoDB: it retries what the writer calls retryable, backing
 * off from 200 ms up to the sink's longest backoff, until the batch is acknowledged or a time limit
 * passes, and says each failed attempt in one line.
 */
public final class AcknowledgementRetries {

  private static final Duration FIRST_RETRY = Duration.ofMillis(200);

  private AcknowledgementRetries() {}

  /**
   * @param maxBackoff the longest wait between two attempts
   * @param giveUpAfter how long one step may go unacknowledged before the command stops
   * @param retrying told each failed attempt, in one line
   */
  public static RetryPolicy<Object> untilAcknowledged(
      final Duration maxBackoff, final Duration giveUpAfter, final Consumer<String> retrying) {
    return RetryPolicy.builder()
        .handleIf(error -> error instanceof BucketWriteException e && e.isRetryable())
        .withBackoff(FIRST_RETRY, maxBackoff.compareTo(FIRST_RETRY) > 0 ? maxBackoff : FIRST_RETRY)
        .withMaxRetries(-1)
        .withMaxDuration(giveUpAfter)
        .onFailedAttempt(
            attempt ->
                retrying.accept(
                    "MongoDB did not acknowledge, retrying: "
                        + attempt.getLastException().getMessage()))
        .build();
  }
}
