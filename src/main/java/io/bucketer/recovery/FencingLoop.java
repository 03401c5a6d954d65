package io.bucketer.recovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * Notices a processor that works but never commits: Kafka Streams went on processing records for
 * {@link #TIMEOUTS} transaction timeouts without a commit. Under exactly-once a stream thread that
 * processes commits every commit interval (100 ms), and a transaction cannot outlive its timeout,
 * so this is the mark of transactions that cannot finish in time: the broker aborts each one, the
 * stream threads are fenced at their next commit, close their tasks, rejoin, restore and try the
 * same work again. The loop ends at the first commit.
 *
 * <p>Why time, and not rounds of rejoining: in such a loop Kafka Streams may never get back to
 * RUNNING (its threads process the tasks they restored while they restore others), and a rejoin may
 * last less than a look; processing without a commit is what every loop shows. The time is counted
 * from the first records processed after the last commit, and time spent restoring state is left
 * out, so that a thread that resumes after a stall, restores its tasks and then commits is not
 * taken for one.
 *
 * <p>Kafka Streams keeps trying by itself, and nothing is lost while it does; but it may never get
 * through, so {@link #reason()} makes the instance not ready and names the remedy, the log says it
 * once a minute at most, and {@link FencingLoopBreaker} acts on it.
 */
public final class FencingLoop {

  /** Transaction timeouts of processing without a commit that make a loop. */
  static final int TIMEOUTS = 3;

  private final Clock clock;
  private final Logger log;
  private final MinuteLine line;
  private final BooleanSupplier restoring;
  private Duration transactionTimeout;
  private Instant lastLook;
  private long commitsAtLastLook;
  private long processedAtLastCommit;
  private Instant processingSince;
  private Duration uncommitted = Duration.ZERO;
  private volatile String reason;

  /**
   * @param restoring whether Kafka Streams restores state now: that time is not counted
   */
  public FencingLoop(
      final Duration transactionTimeout,
      final Clock clock,
      final Logger log,
      final BooleanSupplier restoring) {
    this.transactionTimeout = transactionTimeout;
    this.clock = clock;
    this.log = log;
    this.restoring = restoring;
    this.line = new MinuteLine(log);
  }

  /** One look at what Kafka Streams says now, every tick of the watch. */
  public synchronized void observe(final StallRecovery.StreamsView streams) {
    final Instant now = clock.instant();
    final Instant previous = lastLook;
    lastLook = now;
    if (previous == null || streams.commits() > commitsAtLastLook) {
      if (reason != null) {
        log.info(
            "committing again, after {} of processing without a commit",
            StallRecovery.seconds(uncommitted));
      }
      commitsAtLastLook = streams.commits();
      processedAtLastCommit = streams.processed();
      processingSince = null;
      uncommitted = Duration.ZERO;
      reason = null;
      line.ended();
      return;
    }
    if (processingSince == null) {
      if (streams.processed() > processedAtLastCommit) {
        processingSince = now;
      }
      return;
    }
    if (!restoring.getAsBoolean()) {
      uncommitted = uncommitted.plus(Duration.between(previous, now));
    }
    if (uncommitted.compareTo(transactionTimeout.multipliedBy(TIMEOUTS)) >= 0) {
      reason = line(streams.processed() - processedAtLastCommit);
      line.holds(reason, now);
    }
  }

  /**
   * Kafka Streams was restarted with transactions that time out after {@code transactionTimeout}:
   * the time the new client processes without a commit is counted anew, against the new timeout.
   */
  public synchronized void restarted(final Duration transactionTimeout) {
    this.transactionTimeout = transactionTimeout;
    lastLook = null;
    processingSince = null;
    uncommitted = Duration.ZERO;
    reason = null;
    line.ended();
  }

  /** Why the instance is not ready while it loops, or empty when it does not. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  private String line(final long processedWithoutCommit) {
    return "not committing: kafka streams has processed "
        + processedWithoutCommit
        + " records since "
        + processingSince.truncatedTo(ChronoUnit.SECONDS)
        + " without a commit for "
        + StallRecovery.seconds(uncommitted)
        + " (restores left out): each transaction is aborted before it can commit, having been"
        + " open longer than the transaction timeout ("
        + StallRecovery.seconds(transactionTimeout)
        + "); it keeps trying and loses nothing, but give the instance more CPU or raise"
        + " kafka.transaction.timeout.ms";
  }
}
