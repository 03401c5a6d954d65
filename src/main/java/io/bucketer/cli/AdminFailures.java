package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.RequiredAcls;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;

/**
 * How the commands that move a group's offsets with the admin client ({@code reprocess}, {@code
 * rescale}) end when Kafka fails them: one line in the words {@code run} and {@code check} use for
 * the same failure, never a credential. A missing ACL is named as {@link NotAuthorised} names it
 * (these commands need a part of the processor's ACLs, READ on the group and on the input topic).
 * Exit code 1 when waiting may help (unreachable, or a failure Kafka does not classify), 3 when
 * only the configuration can.
 */
final class AdminFailures {

  /** How long the refusal's line waits to learn which ACL is missing on a topic. */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

  private AdminFailures() {}

  static int report(
      final String command,
      final BucketerConfig config,
      final PrintWriter err,
      final KafkaException error,
      final Duration answerTimeout) {
    final KafkaFailures failures =
        new KafkaFailures(
            config.kafkaProperties(),
            answerTimeout,
            NotAuthorised.of(
                config.kafkaProperties(), RequiredAcls.Names.of(config), PROBE_TIMEOUT));
    final Optional<KafkaFailures.Failure> failure = failures.classify(error);
    if (failure.isPresent()) {
      err.println("bucketer " + command + ": " + failure.get().line());
      return failure.get().cause().retryable() ? 1 : CommandLines.FATAL_DEPENDENCY_FAILURE;
    }
    err.println("bucketer " + command + ": " + failures.unclassified(error));
    return 1;
  }
}
