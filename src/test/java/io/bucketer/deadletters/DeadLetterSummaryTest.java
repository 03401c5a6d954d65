package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class DeadLetterSummaryTest {

  private static final Instant NINE = Instant.parse("2025-06-01T09:00:00Z");

  private final DeadLetterSummary summary = new DeadLetterSummary(DeadLetters.DLQ);

  private void addTheDay() {
    summary.add(DeadLetters.rejected(0, 1, NINE.plusSeconds(5), "missing-field", 0, 10, "{}"));
    summary.add(DeadLetters.rejected(0, 2, NINE.plusSeconds(3599), "missing-field", 10, 11, "{}"));
    summary.add(DeadLetters.rejected(1, 1, NINE.plusSeconds(3600), "not-a-number", 2, 12, "{}"));
    summary.add(
        DeadLetters.failedReplay(
            DeadLetters.rejected(1, 2, NINE.plusSeconds(7300), "missing-field", 0, 13, "{}"),
            "not-a-number"));
    summary.add(new DeadLetter(DeadLetters.DLQ, 2, 0, -1, null, null, new RecordHeaders()));
  }

  @Test
  void shouldCountByReasonHourAndSourcePartition() {
    addTheDay();

    assertThat(summary.records()).isEqualTo(5);
    assertThat(summary.byReason())
        .isEqualTo(Map.of("missing-field", 2L, "not-a-number", 2L, DeadLetter.NO_REASON, 1L));
    assertThat(summary.byHour())
        .containsExactly(
            Map.entry("2025-06-01T09:00:00Z", 2L),
            Map.entry("2025-06-01T10:00:00Z", 1L),
            Map.entry("2025-06-01T11:00:00Z", 1L),
            Map.entry(DeadLetterSummary.UNKNOWN, 1L));
    // partitions in number order: 10 after 2
    assertThat(summary.bySource())
        .containsExactly(
            Map.entry("iot.readings-0", 1L),
            Map.entry("iot.readings-1", 1L),
            Map.entry("iot.readings-2", 1L),
            Map.entry("iot.readings-10", 1L),
            Map.entry(DeadLetterSummary.UNKNOWN, 1L));
    assertThat(summary.failedReplays()).isEqualTo(1);
  }

  @Test
  void shouldPrintAlignedTablesUnderTheTotals() {
    addTheDay();

    final List<String> lines = summary.table().lines().toList();

    assertThat(lines.get(0))
        .isEqualTo("dead-letter topic iot.readings.dlq: 5 records, 1 of them failed replays");
    assertThat(lines)
        .contains(
            "reason         records",
            "(none)               1",
            "missing-field        2",
            "not-a-number         2",
            "hour (UTC)            records",
            "2025-06-01T09:00:00Z        2",
            "(unknown)                   1",
            "source           records",
            "iot.readings-10        1");
  }

  @Test
  void shouldAnswerScriptsInJson() throws Exception {
    addTheDay();

    final JsonNode body = new ObjectMapper().readTree(summary.json());

    assertThat(body.get("topic").asText()).isEqualTo(DeadLetters.DLQ);
    assertThat(body.get("records").asLong()).isEqualTo(5);
    assertThat(body.get("failed_replays").asLong()).isEqualTo(1);
    assertThat(body.get("by_reason").get("missing-field").asLong()).isEqualTo(2);
    assertThat(body.get("by_hour").fieldNames())
        .toIterable()
        .containsExactly(
            "2025-06-01T09:00:00Z",
            "2025-06-01T10:00:00Z",
            "2025-06-01T11:00:00Z",
            DeadLetterSummary.UNKNOWN);
    assertThat(body.get("by_source").get("iot.readings-10").asLong()).isEqualTo(1);
  }

  @Test
  void shouldSayAnEmptyTopicInOneLine() {
    assertThat(summary.table())
        .isEqualTo(
            String.format(
                "dead-letter topic iot.readings.dlq: 0 records, 0 of them failed replays%n"));
  }
}
