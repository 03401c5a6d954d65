package io.bucketer.app;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first failure that retrying cannot fix (Kafka's authorizer refused an operation, Kafka or
 * MongoDB refused the TLS handshake or the login), as its one-line reason. Once there is one, the
 * processor is neither healthy nor ready, and {@code run} ends the process with it: a supervisor
 * then shows the reason, instead of a process that stays up doing nothing.
 */
final class FatalFailure {

  private static final Logger LOG = LoggerFactory.getLogger(FatalFailure.class);

  private final CompletableFuture<String> reason = new CompletableFuture<>();

  /**
   * Logs {@code line}, without a stack trace, and records it, if it is the first. Logged before it
   * is recorded: whoever waits for it (run, to end the process) acts once the line is out.
   */
  synchronized void record(final String line) {
    if (!reason.isDone()) {
      LOG.error(line);
      reason.complete(line);
    }
  }

  Optional<String> reason() {
    return Optional.ofNullable(reason.getNow(null));
  }

  /** Completes with the reason when there is one. */
  CompletionStage<String> whenFailed() {
    return reason.minimalCompletionStage();
  }
}
