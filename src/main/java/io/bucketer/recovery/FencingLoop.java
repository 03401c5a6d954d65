package io.bucketer.recovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;

/**
 * Notices a processor that works but never commits: Kafka Streams processed records, then left
 * RUNNING to rejoin its group without a commit in between, {@link #ROUNDS} times in a row. That is
 * the mark of transactions that cannot finish within the transaction timeout: the broker aborts
 * each one, the stream threads are fenced at their next commit, close their tasks, rejoin, restore
 * and try the same work again. A rebalance of a healthy group (an instance joining or leaving)
 * comes after commits, since a thread that processes commits every commit interval, so it is not
 * counted. The loop ends at the first commit.
 *
 * <p>Kafka Streams keeps trying by itself, and nothing is lost while it does; but it may never get
 * through, so {@link #reason()} makes the instance not ready and names the remedy, and the log says
 * it once a minute at most.
 */
public final class FencingLoop {

  /** Rounds in a row, each processing and rejoining without a commit, that make a loop. */
  static final int ROUNDS = 3;

  private final Duration transactionTimeout;
  private final Clock clock;
  private final Logger log;
  private final MinuteLine line;
  private KafkaStreams.State lastState;
  private long commitsAtLastRejoin;
  private long processedAtLastRejoin;
  private int lostRounds;
  private Instant firstLost;
  private volatile String reason;

  public FencingLoop(final Duration transactionTimeout, final Clock clock, final Logger log) {
    this.transactionTimeout = transactionTimeout;
    this.clock = clock;
    this.log = log;
    this.line = new MinuteLine(log);
  }

  /** One look at what Kafka Streams says now, every tick of the watch. */
  public synchronized void observe(final StallRecovery.StreamsView streams) {
    final Instant now = clock.instant();
    final boolean running = streams.state() == KafkaStreams.State.RUNNING;
    if (lastState == null) {
      commitsAtLastRejoin = streams.commits();
      processedAtLastRejoin = streams.processed();
    } else if (lastState == KafkaStreams.State.RUNNING
        && streams.state() == KafkaStreams.State.REBALANCING) {
      rejoined(streams, now);
    }
    if (running && streams.commits() > commitsAtLastRejoin && lostRounds > 0) {
      if (reason != null) {
        log.info("committing again, after {} rounds without a commit", lostRounds);
      }
      lostRounds = 0;
    }
    lastState = streams.state();
    reason = lostRounds >= ROUNDS ? line() : null;
    if (reason != null) {
      line.holds(reason, now);
    } else {
      line.ended();
    }
  }

  /** Why the instance is not ready while it loops, or empty when it does not. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /**
   * Kafka Streams left RUNNING: the round since it last did was lost if it processed records and
   * committed none of them.
   */
  private void rejoined(final StallRecovery.StreamsView streams, final Instant now) {
    if (streams.commits() == commitsAtLastRejoin && streams.processed() > processedAtLastRejoin) {
      if (lostRounds == 0) {
        firstLost = now;
      }
      lostRounds++;
    } else {
      lostRounds = 0;
    }
    commitsAtLastRejoin = streams.commits();
    processedAtLastRejoin = streams.processed();
  }

  private String line() {
    return "not committing: kafka streams processed records and rejoined its group "
        + lostRounds
        + " times in a row since "
        + firstLost.truncatedTo(ChronoUnit.SECONDS)
        + " without a commit: each transaction was aborted before it could commit, having been"
        + " open longer than the transaction timeout ("
        + StallRecovery.seconds(transactionTimeout)
        + "); it keeps trying and loses nothing, but give the instance more CPU or raise"
        + " kafka.transaction.timeout.ms";
  }
}
