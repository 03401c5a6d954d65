package io.bucketer.cli;

import io.bucketer.deadletters.DeadLetterFilter;
import io.bucketer.deadletters.OffsetRange;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The options that choose dead letters, shared by summary, show and replay. */
final class DeadLetterSelection {

  @Option(
      names = "--reason",
      split = ",",
      paramLabel = "REASON",
      description = "Only these reasons (bucketer.dlq.reason), comma-separated or repeated.")
  List<String> reasons = List.of();

  @Option(
      names = "--from",
      paramLabel = "INSTANT",
      description =
          "Only records timestamped at or after this ISO-8601 instant (2025-06-01T09:00:00Z):"
              + " set aside since then (the original's time is in bucketer.dlq.source.timestamp).")
  Instant from;

  @Option(
      names = "--to",
      paramLabel = "INSTANT",
      description = "Only records timestamped before this ISO-8601 instant.")
  Instant to;

  @Option(
      names = "--partition",
      paramLabel = "RANGE",
      converter = OffsetRangeConverter.class,
      description = "Partitions of the dead-letter topic: N, N-M, N- or -M (default: all).")
  OffsetRange partitions = OffsetRange.ALL;

  @Option(
      names = "--offset",
      paramLabel = "RANGE",
      converter = OffsetRangeConverter.class,
      description = "Offsets in the dead-letter topic's partitions: N, N-M, N- or -M.")
  OffsetRange offsets = OffsetRange.ALL;

  @Option(
      names = "--source-partition",
      paramLabel = "RANGE",
      converter = OffsetRangeConverter.class,
      description = "Partitions the records were read from (bucketer.dlq.source.partition).")
  OffsetRange sourcePartitions = OffsetRange.ALL;

  @Option(
      names = "--source-offset",
      paramLabel = "RANGE",
      converter = OffsetRangeConverter.class,
      description = "Offsets the records were read from (bucketer.dlq.source.offset).")
  OffsetRange sourceOffsets = OffsetRange.ALL;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "At most N records, the first ones of the lowest partitions (default: all).")
  long limit = Long.MAX_VALUE;

  /**
   * @throws CommandLine.ParameterException for an empty time range or a limit below 1
   */
  DeadLetterFilter filter(final CommandLine commandLine) {
    if (limit < 1) {
      throw new CommandLine.ParameterException(commandLine, "--limit must be at least 1");
    }
    try {
      return new DeadLetterFilter(
          reasons(),
          Optional.ofNullable(from),
          Optional.ofNullable(to),
          partitions,
          offsets,
          sourcePartitions,
          sourceOffsets);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(commandLine, e.getMessage());
    }
  }

  Set<String> reasons() {
    final Set<String> chosen = new LinkedHashSet<>();
    reasons.stream().map(String::strip).filter(r -> !r.isEmpty()).forEach(chosen::add);
    return chosen;
  }

  /** Reads a range option; a malformed one is a usage error that says how to write it. */
  static final class OffsetRangeConverter implements CommandLine.ITypeConverter<OffsetRange> {
    @Override
    public OffsetRange convert(final String value) {
      try {
        return OffsetRange.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
