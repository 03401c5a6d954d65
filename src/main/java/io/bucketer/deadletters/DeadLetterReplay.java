package io.bucketer.deadletters;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Sends dead letters back to the input topic, each once, on an idempotent producer: a retried send
 * is never written twice. A replay is safe to run again (after a crash, or twice by mistake): the
 * readings of a record sent again are resends of readings the processor already holds (a series and
 * an event time with the same value), which it counts once; within {@code lateness.horizon}.
 * Refused dead letters ({@link Replayability}) are counted by why, not sent.
 */
public final class DeadLetterReplay {

  private final Producer<byte[], byte[]> producer;
  private final String inputTopic;
  private final Replayability replayability;
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicReference<Exception> firstFailure = new AtomicReference<>();
  private final Map<Replayability.Refusal, Long> refused =
      new EnumMap<>(Replayability.Refusal.class);
  private long sent;

  public DeadLetterReplay(
      final Producer<byte[], byte[]> producer,
      final String inputTopic,
      final Replayability replayability) {
    this.producer = producer;
    this.inputTopic = inputTopic;
    this.replayability = replayability;
  }

  /** The Kafka settings of {@code run} plus what a replay's safety needs. */
  public static Map<String, Object> producerProperties(final Map<String, Object> clientProperties) {
    final Map<String, Object> properties = new HashMap<>(clientProperties);
    // Idempotence: a send retried after a lost acknowledgement is not written twice; acks=all: an
    // acknowledged replay survives a broker's loss.
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    properties.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "bucketer-dead-letters-replay");
    return properties;
  }

  /**
   * Sends {@code letter} to the input topic unless it is refused; returns at once.
   *
   * @return why it was not sent; empty when it was
   */
  public Optional<Replayability.Refusal> offer(final DeadLetter letter) {
    final Optional<Replayability.Refusal> refusal = replayability.refusal(letter);
    if (refusal.isPresent()) {
      refused.merge(refusal.get(), 1L, Long::sum);
      return refusal;
    }
    if (firstFailure.get() != null) {
      throw new ReplayFailedException(acknowledged.get(), firstFailure.get());
    }
    sent++;
    producer.send(
        ReplayRecords.toInput(letter, inputTopic),
        (metadata, error) -> {
          if (error == null) {
            acknowledged.incrementAndGet();
          } else {
            firstFailure.compareAndSet(null, error);
          }
        });
    return Optional.empty();
  }

  /**
   * Waits until Kafka acknowledged every record sent.
   *
   * @return the outcome
   * @throws ReplayFailedException when Kafka refused one (after the producer's own retries)
   */
  public Outcome finish() {
    producer.flush();
    if (firstFailure.get() != null) {
      throw new ReplayFailedException(acknowledged.get(), firstFailure.get());
    }
    return outcome();
  }

  /** Where the replay stands. */
  public Outcome outcome() {
    return new Outcome(sent, acknowledged.get(), Map.copyOf(refused));
  }

  /**
   * @param sent records handed to the producer
   * @param acknowledged records Kafka acknowledged
   * @param refused dead letters not sent, by why
   */
  public record Outcome(long sent, long acknowledged, Map<Replayability.Refusal, Long> refused) {}
}
