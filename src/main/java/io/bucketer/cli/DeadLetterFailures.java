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

/**
 * How the dead-letters commands end when Kafka fails them: one line on standard error, in the words
 * {@code run} and {@code check} use for the same failure (never an exception's class, never a
 * credential), and the exit code: 1 when waiting may help (unreachable, a missing topic, a refused
 * record), 3 when only the configuration can ({@link CommandLines#FATAL_DEPENDENCY_FAILURE}).
 */
final class DeadLetterFailures {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

  private DeadLetterFailures() {}

  static int run(
      final BucketerConfig config, final PrintWriter err, final Supplier<Integer> command) {
    try {
      return command.get();
    } catch (DeadLetterTopicMissingException e) {
      err.println("bucketer: " + e.getMessage());
      return 1;
    } catch (ReplayFailedException e) {
      final int code = report(config, err, e.getCause());
      err.println(
          "bucketer: the replay stopped; "
              + e.acknowledged()
              + " records were acknowledged, and running it again sends them again harmlessly");
      return code;
    } catch (KafkaException e) {
      return report(config, err, e);
    }
  }

  private static int report(
      final BucketerConfig config, final PrintWriter err, final Throwable error) {
    final KafkaFailures failures =
        new KafkaFailures(
            config.kafkaProperties(),
            DeadLetterReader.ANSWER_TIMEOUT,
            NotAuthorised.of(
                config.kafkaProperties(), RequiredAcls.Names.of(config), PROBE_TIMEOUT));
    final Optional<KafkaFailures.Failure> failure = failures.classify(error);
    if (failure.isPresent()) {
      err.println("bucketer: " + failure.get().line());
      return failure.get().cause().retryable() ? 1 : CommandLines.FATAL_DEPENDENCY_FAILURE;
    }
    err.println("bucketer: " + failures.unclassified(error));
    return 1;
  }
}
