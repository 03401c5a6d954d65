package io.bucketer.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.config.BucketerConfig;
import io.bucketer.deadletters.BytesPreview;
import io.bucketer.deadletters.DeadLetter;
import io.bucketer.deadletters.DeadLetterDecoding;
import io.bucketer.deadletters.DeadLetterFilter;
import io.bucketer.deadletters.DeadLetterReader;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.RetryBudget;
import io.bucketer.ingest.SchemaLookup;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer dead-letters show}: the dead letters, decoded as far as they go. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the chosen dead letters: where each is, its reason, message and source, its "
          + "key, headers and value decoded as far as they go (an Avro value by its writer "
          + "schema, JSON as text, else text or hex, each cut to --bytes), and what the "
          + "configured input decoder makes of it now: its readings, or why it still fails. Shows"
          + " the first 20 unless --limit says."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  bucketer dead-letters show -c bucketer.properties --reason missing-field --limit 5"
    })
final class DeadLettersShowCommand implements Callable<Integer> {

  private static final long DEFAULT_LIMIT = 20;
  private static final ObjectMapper JSON = new ObjectMapper();
  // A registry that does not answer must not hold the listing for the processor's whole budget.
  private static final Duration REGISTRY_BUDGET = Duration.ofSeconds(10);

  @Spec CommandSpec spec;

  @Mixin ConfigOptions settings;

  @Mixin DeadLetterSelection selection;

  @Option(
      names = "--bytes",
      paramLabel = "N",
      defaultValue = "200",
      description =
          "Show at most N characters or bytes of each key, header and value"
              + " (default: ${DEFAULT-VALUE}).")
  int bytes;

  @Option(
      names = "--json",
      description =
          "One JSON object per record, a line each (JSON Lines), for scripts; nothing else is"
              + " printed.")
  boolean json;

  @Override
  public Integer call() {
    final DeadLetterFilter filter = selection.filter(spec.commandLine());
    final long limit = selection.limit == Long.MAX_VALUE ? DEFAULT_LIMIT : selection.limit;
    final BucketerConfig config = settings.load();
    final PrintWriter out = spec.commandLine().getOut();
    final DeadLetterDecoding decoding = decoding(config, Math.max(16, bytes));
    return DeadLetterFailures.run(
        config,
        spec.commandLine().getErr(),
        () -> {
          final DeadLetterReader reader =
              new DeadLetterReader(config.kafkaProperties(), config.deadLetterTopic());
          final long shown =
              reader.read(
                  filter,
                  limit,
                  letter -> {
                    out.print(
                        json
                            ? jsonLine(letter, decoding.view(letter))
                            : lines(letter, decoding.view(letter)));
                    out.flush();
                  });
          if (json) {
            return 0;
          }
          out.printf(
              "%,d records shown from %s%s%n",
              shown,
              reader.topic(),
              shown == limit ? " (the first " + limit + "; --limit shows more)" : "");
          out.flush();
          return 0;
        });
  }

  private String lines(final DeadLetter letter, final DeadLetterDecoding.View view) {
    final List<String[]> rows = new ArrayList<>();
    letter
        .message()
        .ifPresent(
            message ->
                rows.add(
                    new String[] {
                      "message", BytesPreview.text(message, 4 * bytes, message.length())
                    }));
    letter.source().ifPresent(source -> rows.add(new String[] {"source", source.toString()}));
    final long sourceTimestamp = letter.sourceTimestamp();
    if (sourceTimestamp >= 0) {
      rows.add(new String[] {"source time", Instant.ofEpochMilli(sourceTimestamp).toString()});
    }
    letter.replayOf().ifPresent(of -> rows.add(new String[] {"replay of", of}));
    rows.add(new String[] {"key", BytesPreview.of(letter.key(), bytes)});
    for (final Header header : letter.headers()) {
      if (!header.key().startsWith(DeadLetterHeaders.PREFIX)
          && !header.key().startsWith(ReplayHeaders.PREFIX)) {
        rows.add(
            new String[] {"header", header.key() + ": " + BytesPreview.of(header.value(), bytes)});
      }
    }
    rows.add(new String[] {"value", view.content()});
    rows.add(new String[] {"decodes now", view.decodesNow()});
    final StringBuilder text =
        new StringBuilder()
            .append(letter.coordinates())
            .append("  ")
            .append(
                letter.timestamp() < 0
                    ? "(no timestamp)"
                    : Instant.ofEpochMilli(letter.timestamp()).toString())
            .append("  ")
            .append(letter.reason())
            .append(System.lineSeparator());
    final int width = rows.stream().mapToInt(row -> row[0].length()).max().orElse(0);
    for (final String[] row : rows) {
      text.append("  ")
          .append(String.format("%-" + width + "s", row[0]))
          .append("  ")
          .append(row[1])
          .append(System.lineSeparator());
    }
    return text.toString();
  }

  /**
   * The fields of {@link #lines}, named: where the record is, its time (ISO-8601, or null: when it
   * was set aside), reason, message, source ({@code topic}, {@code partition}, {@code offset}) and
   * the source record's time ({@code source_timestamp}, ISO-8601 or null), the record it replays,
   * its key, its other headers, its value as far as it decodes and what the decoder makes of it
   * now.
   */
  private String jsonLine(final DeadLetter letter, final DeadLetterDecoding.View view) {
    final Map<String, Object> record = new LinkedHashMap<>();
    record.put("topic", letter.topic());
    record.put("partition", letter.partition());
    record.put("offset", letter.offset());
    record.put(
        "timestamp",
        letter.timestamp() < 0 ? null : Instant.ofEpochMilli(letter.timestamp()).toString());
    record.put("reason", letter.reason());
    record.put(
        "message",
        letter.message().map(m -> BytesPreview.text(m, 4 * bytes, m.length())).orElse(null));
    record.put(
        "source",
        letter
            .source()
            .map(
                source ->
                    Map.of(
                        "topic", source.topic(),
                        "partition", source.partition(),
                        "offset", source.offset()))
            .orElse(null));
    final long sourceTimestamp = letter.sourceTimestamp();
    record.put(
        "source_timestamp",
        sourceTimestamp < 0 ? null : Instant.ofEpochMilli(sourceTimestamp).toString());
    record.put("replay_of", letter.replayOf().orElse(null));
    record.put("key", BytesPreview.of(letter.key(), bytes));
    final Map<String, String> headers = new LinkedHashMap<>();
    for (final Header header : letter.headers()) {
      if (!header.key().startsWith(DeadLetterHeaders.PREFIX)
          && !header.key().startsWith(ReplayHeaders.PREFIX)) {
        headers.put(header.key(), BytesPreview.of(header.value(), bytes));
      }
    }
    record.put("headers", headers);
    record.put("value", view.content());
    record.put("decodes_now", view.decodesNow());
    try {
      return JSON.writeValueAsString(record) + System.lineSeparator();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings and numbers are always JSON", e);
    }
  }

  /** The input's decoder as run builds it, and its registry for Avro values' writer schemas. */
  private static DeadLetterDecoding decoding(final BucketerConfig config, final int limit) {
    final InputFormat format = config.inputFormat();
    final SchemaRegistryClient registry =
        config.input().needsSchemaRegistry()
            ? new SchemaRegistryClient(
                config.schemaRegistryUrl(),
                Duration.ofSeconds(5),
                new RetryBudget(
                    RetryBudget.defaults().initialBackoff(),
                    RetryBudget.defaults().maxBackoff(),
                    REGISTRY_BUDGET),
                config.input().schemaRegistryAuth(),
                config.input().schemaRegistryTls())
            : null;
    final Optional<InputDecoder> decoder =
        format == InputFormat.SPARKPLUG_B
            ? Optional.empty()
            : Optional.of(
                InputDecoders.of(
                    format,
                    config.readingMapping(),
                    registry,
                    registry,
                    config.input().formatOptions()));
    final Optional<SchemaLookup> avroSchemas =
        format == InputFormat.AVRO ? Optional.ofNullable(registry) : Optional.empty();
    return new DeadLetterDecoding(format, decoder, avroSchemas, limit);
  }
}
