package io.bucketer.deadletters;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dead letters counted by reason, by hour (UTC) of the dead-letter record's timestamp (when it was
 * set aside), and by the topic-partition they were read from; as aligned tables for a person or
 * JSON for a script.
 */
public final class DeadLetterSummary {

  /** The hour and source rows of records whose timestamp or source is not known. */
  static final String UNKNOWN = "(unknown)";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final String topic;
  private final Map<String, Long> byReason = new TreeMap<>();
  // Hours as instants sort in time; the unknown hour comes last.
  private final Map<Instant, Long> byHour = new TreeMap<>();
  private final Map<DeadLetter.Source, Long> bySource =
      new TreeMap<>(
          Comparator.comparing(DeadLetter.Source::topic)
              .thenComparingInt(DeadLetter.Source::partition));
  private long records;
  private long withoutTimestamp;
  private long withoutSource;
  private long failedReplays;

  public DeadLetterSummary(final String topic) {
    this.topic = topic;
  }

  public void add(final DeadLetter letter) {
    records++;
    byReason.merge(letter.reason(), 1L, Long::sum);
    if (letter.timestamp() < 0) {
      withoutTimestamp++;
    } else {
      byHour.merge(
          Instant.ofEpochMilli(letter.timestamp()).truncatedTo(ChronoUnit.HOURS), 1L, Long::sum);
    }
    letter
        .source()
        .ifPresentOrElse(
            // one row per source partition: the offset is left out of the key
            source ->
                bySource.merge(
                    new DeadLetter.Source(source.topic(), source.partition(), 0), 1L, Long::sum),
            () -> withoutSource++);
    if (letter.replayOf().isPresent()) {
      failedReplays++;
    }
  }

  public long records() {
    return records;
  }

  /** The counts by reason, in reason order. */
  public Map<String, Long> byReason() {
    return Map.copyOf(byReason);
  }

  /** The counts by hour, {@code 2025-06-01T09:00:00Z}, with {@value #UNKNOWN} last. */
  public Map<String, Long> byHour() {
    final Map<String, Long> hours = new LinkedHashMap<>();
    byHour.forEach((hour, count) -> hours.put(hour.toString(), count));
    if (withoutTimestamp > 0) {
      hours.put(UNKNOWN, withoutTimestamp);
    }
    return hours;
  }

  /** The counts by source partition, {@code topic-partition}, with {@value #UNKNOWN} last. */
  public Map<String, Long> bySource() {
    final Map<String, Long> sources = new LinkedHashMap<>();
    bySource.forEach((source, count) -> sources.put(source.topicPartition(), count));
    if (withoutSource > 0) {
      sources.put(UNKNOWN, withoutSource);
    }
    return sources;
  }

  /** Records whose input was a replay that failed again. */
  public long failedReplays() {
    return failedReplays;
  }

  /** Three aligned tables under one line of totals. */
  public String table() {
    final StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            "dead-letter topic %s: %,d records, %,d of them failed replays%n",
            topic, records, failedReplays));
    if (records == 0) {
      return text.toString();
    }
    appendTable(text, "reason", new LinkedHashMap<>(byReason));
    appendTable(text, "hour (UTC)", byHour());
    appendTable(text, "source", bySource());
    return text.toString();
  }

  /**
   * {@code {"topic", "records", "failed_replays", "by_reason": {reason: n}, "by_hour": {hour: n},
   * "by_source": {topic-partition: n}}}, each map in the tables' order.
   */
  public String json() {
    final Map<String, Object> body = new LinkedHashMap<>();
    body.put("topic", topic);
    body.put("records", records);
    body.put("failed_replays", failedReplays);
    body.put("by_reason", new LinkedHashMap<>(byReason));
    body.put("by_hour", byHour());
    body.put("by_source", bySource());
    try {
      return JSON.writeValueAsString(body) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings and numbers are always JSON", e);
    }
  }

  /** The names left-aligned, the counts right-aligned, two spaces between; a blank line before. */
  private static void appendTable(
      final StringBuilder text, final String heading, final Map<String, Long> counts) {
    final List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {heading, "records"});
    counts.forEach((name, count) -> rows.add(new String[] {name, String.format("%,d", count)}));
    int nameWidth = 0;
    int countWidth = 0;
    for (final String[] row : rows) {
      nameWidth = Math.max(nameWidth, row[0].length());
      countWidth = Math.max(countWidth, row[1].length());
    }
    text.append(String.format("%n"));
    for (final String[] row : rows) {
      text.append(String.format("%-" + nameWidth + "s  %" + countWidth + "s%n", row[0], row[1]));
    }
  }
}
