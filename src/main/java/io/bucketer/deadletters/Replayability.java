package io.bucketer.deadletters;

import io.bucketer.topics.DeadLetterHeaders;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a dead letter may go back to the input topic. Only rejected input may: its record is the
 * input record, key, value and headers. A too-late reading (JSON from the repartition topic) and a
 * bucket MongoDB rejected (a buckets topic record) are not input records, and sent to the input
 * topic they would only be rejected again, as not a reading.
 *
 * <p>A reading over a series limit is not an input record either, but it may go back: the decoded
 * reading as JSON, keyed by its sensor id, which the processor reads as such whatever its input
 * format, Sparkplug B included, once it carries the replay's headers ({@code ReplayHeaders}, reason
 * {@code series-limit}).
 *
 * <p>A replayed record that fails again comes back as a new dead letter whose {@link
 * DeadLetter#replayOf()} names the one it replayed. That failed replay is left alone unless asked
 * for (the same fault would fail it the same way), and the dead letter it replayed is never sent
 * again: the failed replay stands for it. So each record fails at most once per replay the operator
 * asks for, nothing goes round between the topics by itself, and a second replay after a fix sends
 * one copy of each record, not two. Dead letters whose replay succeeded leave no trace: a second
 * replay sends them again, and the processor counts their readings once (resends).
 */
public final class Replayability {

  /** The reasons whose records are not input records. */
  public static final Set<String> NOT_INPUT =
      Set.of(DeadLetterHeaders.TOO_LATE, DeadLetterHeaders.MONGODB_REJECTED);

  /** Why a dead letter is not replayed. */
  public enum Refusal {
    /** Not an input record: a too-late reading, a bucket, or read from another topic. */
    NOT_INPUT("not input records (too-late readings, rejected buckets, read from another topic)"),
    /** A replay that failed again; taken with --include-failed-replays. */
    FAILED_REPLAY("failed replays (take them with --include-failed-replays)"),
    /** Replayed before, and that replay failed again: the failed replay stands for it. */
    SUPERSEDED("replayed before, whose replay failed again and stands for them"),
    /** No reason header: not a dead letter bucketer wrote. */
    NOT_A_DEAD_LETTER("records without a bucketer.dlq.reason header");

    private final String description;

    Refusal(final String description) {
      this.description = description;
    }

    /** How a line of the replay's report names the records refused for this. */
    public String description() {
      return description;
    }
  }

  private final String inputTopic;
  private final boolean includeFailedReplays;
  private final Set<String> replayedAndFailed;

  /**
   * @param replayedAndFailed the coordinates ({@link DeadLetter#coordinates()}) of the dead letters
   *     that a failed replay names
   */
  public Replayability(
      final String inputTopic,
      final boolean includeFailedReplays,
      final Set<String> replayedAndFailed) {
    this.inputTopic = inputTopic;
    this.includeFailedReplays = includeFailedReplays;
    this.replayedAndFailed = Set.copyOf(replayedAndFailed);
  }

  /**
   * The replayability of the dead letters {@code reader} reads: it reads the whole topic once, for
   * the failed replays' {@link DeadLetter#replayOf()}, keeping only those names.
   */
  public static Replayability of(
      final DeadLetterReader reader, final String inputTopic, final boolean includeFailedReplays) {
    final Set<String> replayedAndFailed = new HashSet<>();
    reader.read(
        DeadLetterFilter.ALL,
        Long.MAX_VALUE,
        letter -> letter.replayOf().ifPresent(replayedAndFailed::add));
    return new Replayability(inputTopic, includeFailedReplays, replayedAndFailed);
  }

  /** Why {@code letter} is not replayed; empty when it is. */
  public Optional<Refusal> refusal(final DeadLetter letter) {
    if (DeadLetter.NO_REASON.equals(letter.reason())) {
      return Optional.of(Refusal.NOT_A_DEAD_LETTER);
    }
    if (!DeadLetterHeaders.SERIES_LIMIT.equals(letter.reason())
        && (NOT_INPUT.contains(letter.reason())
            || letter.source().map(source -> !source.topic().equals(inputTopic)).orElse(false))) {
      return Optional.of(Refusal.NOT_INPUT);
    }
    if (replayedAndFailed.contains(letter.coordinates())) {
      return Optional.of(Refusal.SUPERSEDED);
    }
    if (letter.replayOf().isPresent() && !includeFailedReplays) {
      return Optional.of(Refusal.FAILED_REPLAY);
    }
    return Optional.empty();
  }
}
