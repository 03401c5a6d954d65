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

  /** Records {@code line} and logs it, without a stack trace, if it is the first. */
  void record(final String line) {
    if (reason.complete(line)) {
      LOG.error(line);
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
