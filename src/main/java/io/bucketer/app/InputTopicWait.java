package io.bucketer.app;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.bucketer.kafkaaccess.KafkaUnusableException;
import io.bucketer.kafkaaccess.NotAuthorisedException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts Kafka Streams once the input topic exists, rather than letting it fail on a missing source
 * topic and never recover: a Kubernetes rollout or a compose file may start bucketer before the job
 * that makes the gateways' topic. Meanwhile the processor is alive and not ready, its reason the
 * one line logged when the wait begins, at most once a minute while it lasts, and once when it
 * ends. With {@code input.topic.missing=fail} a missing topic is fatal instead.
 */
final class InputTopicWait implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(InputTopicWait.class);
  private static final Duration LOG_EVERY = Duration.ofMinutes(1);

  /** Asks the cluster whether the input topic exists. */
  interface Probe {
    boolean exists() throws InterruptedException;
  }

  private final Probe probe;
  private final String topic;
  private final String cluster;
  private final Runnable start;
  private final FatalFailure fatal;
  private final Duration maxBackoff;
  private final Clock clock;
  private volatile String waiting;
  private Instant lastLogged = Instant.MIN;
  private CompletableFuture<Boolean> attempts;

  InputTopicWait(
      final Probe probe,
      final String topic,
      final String cluster,
      final Runnable start,
      final FatalFailure fatal,
      final Duration maxBackoff,
      final Clock clock) {
    this.probe = probe;
    this.topic = topic;
    this.cluster = cluster;
    this.start = start;
    this.fatal = fatal;
    this.maxBackoff = maxBackoff;
    this.clock = clock;
  }

  /** Starts at once if the topic exists; otherwise fails, or waits in the background. */
  synchronized void begin(final boolean failWhenMissing) throws InterruptedException {
    if (probe.exists()) {
      start.run();
      return;
    }
    final String line = "kafka at " + cluster + ": missing topic " + topic;
    if (failWhenMissing) {
      fatal.record(line + " (input.topic.missing=fail)");
      return;
    }
    waiting = line + ": waiting for it to exist before processing";
    logNowAndThen();
    final RetryPolicy<Boolean> untilItExists =
        RetryPolicy.<Boolean>builder()
            .handleResult(false)
            .handle(IllegalStateException.class, KafkaUnreachableException.class)
            .abortOn(NotAuthorisedException.class, KafkaUnusableException.class)
            .withBackoff(Duration.ofSeconds(1), maxBackoff)
            .withMaxRetries(-1)
            .onFailedAttempt(
                attempt -> {
                  if (attempt.getLastException() instanceof KafkaUnreachableException away) {
                    waiting = away.getMessage();
                  } else if (attempt.getLastException() != null) {
                    waiting =
                        "kafka at "
                            + cluster
                            + ": cannot tell whether topic "
                            + topic
                            + " exists: "
                            + attempt.getLastException().getMessage();
                  }
                  logNowAndThen();
                })
            .build();
    attempts =
        Failsafe.with(untilItExists)
            .getAsync(probe::exists)
            .whenComplete(
                (exists, failure) -> {
                  if (failure instanceof NotAuthorisedException
                      || failure instanceof KafkaUnusableException) {
                    fatal.record(failure.getMessage());
                  } else if (Boolean.TRUE.equals(exists)) {
                    LOG.info("kafka at {}: topic {} exists now: processing starts", cluster, topic);
                    waiting = null;
                    start.run();
                  }
                });
  }

  /** Why processing has not started, while it waits. */
  Optional<String> waitingReason() {
    return Optional.ofNullable(waiting);
  }

  private synchronized void logNowAndThen() {
    final Instant now = clock.instant();
    if (Duration.between(lastLogged, now).compareTo(LOG_EVERY) >= 0) {
      LOG.warn(waiting);
      lastLogged = now;
    }
  }

  @Override
  public synchronized void close() {
    if (attempts != null) {
      attempts.cancel(true);
    }
  }
}
