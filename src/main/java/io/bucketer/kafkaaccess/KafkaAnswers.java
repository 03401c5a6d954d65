package io.bucketer.kafkaaccess;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;

/**
 * The answer of an admin request within a deadline, failed with Kafka's own exception, so that the
 * commands that ask the cluster ({@code reprocess}, {@code rescale}) tell a refusal from an outage
 * as {@link KafkaFailures} does for every command.
 */
public final class KafkaAnswers {

  private KafkaAnswers() {}

  /** The future's value within {@code timeout}. */
  public static <T> T within(final KafkaFuture<T> future, final Duration timeout) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("interrupted while waiting for the cluster", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof KafkaException failure) {
        throw failure;
      }
      throw new KafkaException(e.getCause());
    } catch (TimeoutException e) {
      throw new org.apache.kafka.common.errors.TimeoutException(
          "no answer from Kafka within " + timeout.toSeconds() + " s", e);
    }
  }
}
