package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class DeadLetterReplayTest {

  private static final Instant NINE = Instant.parse("2025-06-01T09:00:00Z");

  private final DeadLetter first = DeadLetters.rejected(0, 1, NINE, "missing-field", 0, 10, "{}");
  private final DeadLetter second = DeadLetters.rejected(0, 2, NINE, "not-a-number", 1, 11, "{}");
  private final DeadLetter failedAgain = DeadLetters.failedReplay(first, "not-a-number");
  private final DeadLetter tooLate =
      DeadLetters.from("bucketer-readings-by-series-repartition", DeadLetterHeaders.TOO_LATE);
  private final DeadLetter bucket =
      DeadLetters.from("iot.buckets", DeadLetterHeaders.MONGODB_REJECTED);
  private final DeadLetter fromElsewhere = DeadLetters.from("other.topic", "missing-field");

  /** What the topic holds: first was replayed, and failed again as failedAgain. */
  private final Set<String> replayedAndFailed = Set.of(first.coordinates());

  @Test
  void shouldSendTheInputRecordsAndCountTheOthersByWhy() {
    final MockProducer<byte[], byte[]> producer = producer(true);
    final DeadLetterReplay replay =
        new DeadLetterReplay(producer, DeadLetters.INPUT, replayability(false));

    for (final DeadLetter letter :
        List.of(first, tooLate, second, bucket, failedAgain, fromElsewhere)) {
      replay.offer(letter);
    }
    final DeadLetterReplay.Outcome outcome = replay.finish();

    assertThat(producer.history())
        .extracting(r -> new String(r.headers().lastHeader(ReplayHeaders.OF).value()))
        .containsExactly("iot.readings.dlq/0/2");
    assertThat(outcome.sent()).isEqualTo(1);
    assertThat(outcome.acknowledged()).isEqualTo(1);
    assertThat(outcome.refused())
        .isEqualTo(
            Map.of(
                Replayability.Refusal.NOT_INPUT, 3L,
                Replayability.Refusal.FAILED_REPLAY, 1L,
                Replayability.Refusal.SUPERSEDED, 1L));
  }

  @Test
  void shouldSendAFailedReplayOnlyWhenAskedToAndNeverTheDeadLetterItReplayed() {
    final Replayability byDefault = replayability(false);
    final Replayability asked = replayability(true);

    assertThat(byDefault.refusal(failedAgain)).contains(Replayability.Refusal.FAILED_REPLAY);
    assertThat(asked.refusal(failedAgain)).isEmpty();
    assertThat(asked.refusal(first)).contains(Replayability.Refusal.SUPERSEDED);
    assertThat(asked.refusal(tooLate)).contains(Replayability.Refusal.NOT_INPUT);
  }

  @Test
  void shouldRefuseARecordWithoutAReason() {
    final DeadLetter foreign =
        new DeadLetter(
            "dlq",
            0,
            0,
            0,
            null,
            null,
            new org.apache.kafka.common.header.internals.RecordHeaders());

    assertThat(replayability(true).refusal(foreign))
        .isEqualTo(Optional.of(Replayability.Refusal.NOT_A_DEAD_LETTER));
  }

  @Test
  void shouldStopWithWhatWasAcknowledgedWhenKafkaRefusesARecord() {
    final MockProducer<byte[], byte[]> producer = producer(false);
    final DeadLetterReplay replay =
        new DeadLetterReplay(producer, DeadLetters.INPUT, replayability(false));
    replay.offer(second);
    replay.offer(DeadLetters.rejected(1, 3, NINE, "not-a-number", 1, 12, "{}"));
    producer.completeNext();
    producer.errorNext(new RecordTooLargeException("too large"));

    assertThatThrownBy(replay::finish)
        .isInstanceOfSatisfying(
            ReplayFailedException.class, e -> assertThat(e.acknowledged()).isEqualTo(1))
        .hasCauseInstanceOf(RecordTooLargeException.class);
  }

  @Test
  void shouldAskForAnIdempotentProducerWhateverTheSettingsSay() {
    final Map<String, Object> properties =
        DeadLetterReplay.producerProperties(
            Map.of(
                "bootstrap.servers",
                "kafka:9092",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                false,
                ProducerConfig.ACKS_CONFIG,
                "1",
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "bucketer"));

    assertThat(properties)
        .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
        .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
        .containsEntry("bootstrap.servers", "kafka:9092")
        .doesNotContainKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
  }

  private Replayability replayability(final boolean includeFailedReplays) {
    return new Replayability(DeadLetters.INPUT, includeFailedReplays, replayedAndFailed);
  }

  private static MockProducer<byte[], byte[]> producer(final boolean autoComplete) {
    return new MockProducer<>(
        autoComplete, null, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
