package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.deadletters.DeadLetterReader;
import io.bucketer.deadletters.DeadLetterTopicMissingException;
import io.bucketer.deadletters.ReplayFailedException;
import io.bucketer.kafkaaccess.KafkaFailures;
import io.bucketer.kafkaaccess.NotAuthorised;
import io.bucketer.kafkaaccess.RequiredAcls;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * How the dead-letters commands end when Kafka fails them: one line on standard error, in the words
 * {@code run} and {@code check} use for the same failure (never an exception's class, never a
 * credential), and the exit code: 1 when waiting may help (unreachable, a missing topic, a refused
 * record), 3 when only the configuration can ({@link CommandLines#FATAL_DEPENDENCY_FAILURE}).
 *
 * <p>A refusal by the authorizer names what these commands need, not what the processor needs
 * (which {@link NotAuthorised} knows): Read on the dead-letter topic to read it, Write on the input
 * topic to replay.
 */
final class DeadLetterFailures {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
  private static final String SEE = " — see docs/dead-letters.md";

  private DeadLetterFailures() {}

  static int run(
      final BucketerConfig config, final PrintWriter err, final Supplier<Integer> command) {
    try {
      return command.get();
    } catch (DeadLetterTopicMissingException e) {
      err.println("bucketer: " + e.getMessage());
      return 1;
    } catch (ReplayFailedException e) {
      final int code =
          report(config, err, e.getCause(), "WRITE on topic '" + config.inputTopic() + "'");
      err.println(
          "bucketer: the replay stopped; "
              + e.acknowledged()
              + " records were acknowledged, and running it again sends them again harmlessly");
      return code;
    } catch (KafkaException e) {
      return report(config, err, e, "READ on topic '" + config.deadLetterTopic() + "'");
    }
  }

  /**
   * @param needed what a topic refusal means here: the one operation on the one topic that the
   *     failed step needed
   */
  private static int report(
      final BucketerConfig config,
      final PrintWriter err,
      final Throwable error,
      final String needed) {
    final KafkaFailures failures =
        new KafkaFailures(
            config.kafkaProperties(),
            DeadLetterReader.ANSWER_TIMEOUT,
            NotAuthorised.of(
                config.kafkaProperties(), RequiredAcls.Names.of(config), PROBE_TIMEOUT));
    final Optional<AuthorizationException> refusal = NotAuthorised.find(error);
    if (refusal.isPresent()) {
      // Another refusal (the cluster's, a group's) in Kafka's own first line, which names it.
      final String message = refusal.get().getMessage();
      final String what =
          refusal.get() instanceof TopicAuthorizationException || message == null
              ? needed
              : message.lines().findFirst().orElse(message);
      err.println("bucketer: " + failures.line("not authorised: " + what + SEE));
      return CommandLines.FATAL_DEPENDENCY_FAILURE;
    }
    final Optional<KafkaFailures.Failure> failure = failures.classify(error);
    if (failure.isPresent()) {
      err.println("bucketer: " + failure.get().line());
      return failure.get().cause().retryable() ? 1 : CommandLines.FATAL_DEPENDENCY_FAILURE;
    }
    err.println("bucketer: " + failures.unclassified(error));
    return 1;
  }
}
