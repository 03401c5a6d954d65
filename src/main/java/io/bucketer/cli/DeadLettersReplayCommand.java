package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.deadletters.DeadLetter;
import io.bucketer.deadletters.DeadLetterFilter;
import io.bucketer.deadletters.DeadLetterReader;
import io.bucketer.deadletters.DeadLetterReplay;
import io.bucketer.deadletters.Replayability;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bucketer dead-letters replay}: sends the chosen dead letters back to the input topic. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Sends the chosen dead letters back to input.topic, after the fix that makes them "
          + "readings (a mapping, a registered schema), each with its original key, value, "
          + "timestamp and headers and a bucketer.replay.of header naming the dead letter. "
          + "Replaying again changes nothing: the processor counts a reading it already holds "
          + "(same series, time and value) once, for lateness.horizon of its series' event time. "
          + "Too-late readings and buckets MongoDB rejected are not input records and are never "
          + "sent. Readings over a series limit go back as the JSON reading their dead letter "
          + "holds, which the processor reads whatever input.format says, Sparkplug B "
          + "included: replay them once the tenant's limit is raised. A replayed record that "
          + "fails again comes back once, with its new reason and "
          + "bucketer.replay.of; it is sent again only with --include-failed-replays, and the "
          + "dead letter it replayed never again: nothing goes round."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  bucketer dead-letters replay -c bucketer.properties --reason missing-field \\",
      "      --dry-run",
      "  bucketer dead-letters replay -c bucketer.properties --reason missing-field \\",
      "      --from 2025-06-01T09:00:00Z --to 2025-06-01T12:00:00Z",
      "  bucketer dead-letters replay -c bucketer.properties --reason series-limit"
    })
final class DeadLettersReplayCommand implements Callable<Integer> {

  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  @Spec CommandSpec spec;

  @Mixin ConfigOptions settings;

  @Mixin DeadLetterSelection selection;

  @Option(names = "--dry-run", description = "Print what would be sent, and send nothing.")
  boolean dryRun;

  @Option(
      names = "--include-failed-replays",
      description =
          "Also send records that were replays and failed again (header bucketer.replay.of),"
              + " after a second fix.")
  boolean includeFailedReplays;

  @Override
  public Integer call() {
    final DeadLetterFilter filter = selection.filter(spec.commandLine());
    final Set<String> notInput = new TreeSet<>(selection.reasons());
    notInput.retainAll(Replayability.NOT_INPUT);
    if (!notInput.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "--reason "
              + String.join(",", notInput)
              + ": too-late dead letters are decoded readings from the repartition topic and"
              + " mongodb-rejected ones are buckets; neither is an input record, so neither can"
              + " go back to the input topic");
    }
    final BucketerConfig config = settings.load();
    final PrintWriter out = spec.commandLine().getOut();
    final DeadLetterReader reader =
        new DeadLetterReader(config.kafkaProperties(), config.deadLetterTopic());
    return DeadLetterFailures.run(
        config,
        spec.commandLine().getErr(),
        () -> {
          final Replayability replayability =
              Replayability.of(reader, config.inputTopic(), includeFailedReplays);
          return dryRun
              ? dryRun(reader, filter, replayability, config.inputTopic(), out)
              : replay(reader, filter, replayability, config, out);
        });
  }

  private int dryRun(
      final DeadLetterReader reader,
      final DeadLetterFilter filter,
      final Replayability replayability,
      final String inputTopic,
      final PrintWriter out) {
    final Map<Replayability.Refusal, Long> refused = new EnumMap<>(Replayability.Refusal.class);
    final long[] wouldSend = {0};
    reader.read(
        filter,
        selection.limit,
        letter -> {
          final Optional<Replayability.Refusal> refusal = replayability.refusal(letter);
          if (refusal.isPresent()) {
            refused.merge(refusal.get(), 1L, Long::sum);
          } else {
            wouldSend[0]++;
            out.println("would replay " + describe(letter) + " to " + inputTopic);
          }
        });
    out.printf(
        "dry run: %,d records would be replayed to %s; nothing was sent%n",
        wouldSend[0], inputTopic);
    printRefused(refused, out);
    out.flush();
    return 0;
  }

  private int replay(
      final DeadLetterReader reader,
      final DeadLetterFilter filter,
      final Replayability replayability,
      final BucketerConfig config,
      final PrintWriter out) {
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(config.inputTopic());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            DeadLetterReplay.producerProperties(config.kafkaProperties()),
            input.keySerializer(),
            input.valueSerializer())) {
      final DeadLetterReplay replay =
          new DeadLetterReplay(producer, config.inputTopic(), replayability);
      final long[] lastProgress = {System.nanoTime()};
      reader.read(
          filter,
          selection.limit,
          letter -> {
            replay.offer(letter);
            if (System.nanoTime() - lastProgress[0] >= PROGRESS_EVERY.toNanos()) {
              lastProgress[0] = System.nanoTime();
              final DeadLetterReplay.Outcome sofar = replay.outcome();
              out.printf(
                  "sent %,d records (%,d acknowledged), at %s%n",
                  sofar.sent(), sofar.acknowledged(), letter.coordinates());
              out.flush();
            }
          });
      final DeadLetterReplay.Outcome outcome = replay.finish();
      producer.close(CLOSE_TIMEOUT);
      out.printf(
          "done: %,d records replayed to %s from %s%n",
          outcome.acknowledged(), config.inputTopic(), reader.topic());
      printRefused(outcome.refused(), out);
      out.flush();
      return 0;
    }
  }

  private static void printRefused(
      final Map<Replayability.Refusal, Long> refused, final PrintWriter out) {
    refused.forEach(
        (refusal, count) -> out.printf("not replayed: %,d %s%n", count, refusal.description()));
  }

  private static String describe(final DeadLetter letter) {
    return letter.coordinates()
        + " "
        + letter.reason()
        + letter.source().map(source -> " (from " + source + ")").orElse("");
  }
}
