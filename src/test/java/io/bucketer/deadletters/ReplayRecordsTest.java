package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class ReplayRecordsTest {

  private static final Instant NINE = Instant.parse("2025-06-01T09:00:00Z");

  /** A dead letter is stamped when it was set aside; the replay takes the original's time. */
  @Test
  void shouldKeepTheOriginalKeyValueTimestampAndHeadersAndNameTheDeadLetter() {
    final DeadLetter letter = DeadLetters.rejected(2, 41, NINE, "missing-field", 1, 7, "{\"a\":1}");

    final ProducerRecord<byte[], byte[]> replayed =
        ReplayRecords.toInput(letter, DeadLetters.INPUT);

    assertThat(replayed.topic()).isEqualTo(DeadLetters.INPUT);
    assertThat(replayed.partition()).as("placed by its key, as the original was").isNull();
    assertThat(replayed.key()).isEqualTo(letter.key());
    assertThat(replayed.value()).isEqualTo(letter.value());
    assertThat(replayed.timestamp()).isEqualTo(NINE.minus(DeadLetters.ORIGINAL_AGE).toEpochMilli());
    assertThat(names(replayed))
        .containsExactly("content-type", ReplayHeaders.OF, ReplayHeaders.REASON);
    assertThat(text(replayed, ReplayHeaders.OF)).isEqualTo("iot.readings.dlq/2/41");
    assertThat(text(replayed, ReplayHeaders.REASON)).isEqualTo("missing-field");
  }

  @Test
  void shouldNameOnlyTheLatestDeadLetterWhenAFailedReplayIsReplayedAgain() {
    final DeadLetter again =
        DeadLetters.failedReplay(
            DeadLetters.rejected(0, 1, NINE, "missing-field", 1, 7, "{}"), "not-a-number");

    final ProducerRecord<byte[], byte[]> replayed = ReplayRecords.toInput(again, DeadLetters.INPUT);

    assertThat(names(replayed))
        .containsExactly("content-type", ReplayHeaders.OF, ReplayHeaders.REASON);
    assertThat(text(replayed, ReplayHeaders.OF)).isEqualTo("iot.readings.dlq/0/1001");
    assertThat(text(replayed, ReplayHeaders.REASON)).isEqualTo("not-a-number");
  }

  @Test
  void shouldLeaveTheTimestampToTheProducerWhenTheOriginalHadNone() {
    final RecordHeaders headers = new RecordHeaders();
    DeadLetterHeaders.add(headers, "missing-field", "why", DeadLetters.INPUT, 1, 7, -1);
    final DeadLetter untimed =
        new DeadLetter(
            DeadLetters.DLQ, 0, 1, NINE.toEpochMilli(), null, DeadLetters.utf8("{}"), headers);

    assertThat(ReplayRecords.toInput(untimed, DeadLetters.INPUT).timestamp()).isNull();
  }

  /** Format 1 kept the original's timestamp as the dead letter's own, and no header. */
  @Test
  void shouldReplayADeadLetterOfFormatOneAtItsOwnTimestamp() {
    final RecordHeaders headers = new RecordHeaders();
    headers.add(DeadLetterHeaders.FORMAT, DeadLetters.utf8("1"));
    headers.add(DeadLetterHeaders.REASON, DeadLetters.utf8("missing-field"));
    final DeadLetter formatOne =
        new DeadLetter(
            DeadLetters.DLQ, 0, 1, NINE.toEpochMilli(), null, DeadLetters.utf8("{}"), headers);

    assertThat(ReplayRecords.toInput(formatOne, DeadLetters.INPUT).timestamp())
        .isEqualTo(NINE.toEpochMilli());
  }

  private static java.util.List<String> names(final ProducerRecord<byte[], byte[]> record) {
    return Arrays.stream(record.headers().toArray()).map(Header::key).toList();
  }

  private static String text(final ProducerRecord<byte[], byte[]> record, final String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
