package io.bucketer.recovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;

/**
 * What the processor does about a stall it noticed ({@link StallDetector}), and the one line that
 * says so while it lasts.
 *
 * <p>A stall shorter than the transaction timeout costs nothing but its length: the open
 * transaction is still there when the threads run again. One that outlived it finds the transaction
 * aborted by the broker: the stream threads are fenced at their next commit, close their tasks
 * dirty (under exactly-once that wipes the tasks' local state), rejoin the group and restore the
 * state from the changelogs; one that outlived the session timeout was also evicted from the group,
 * with the same ending. Kafka Streams does all that by itself. Until it processes again, {@link
 * #reason()} says where it is, and the log says it when the stall is noticed, at most once a minute
 * while the recovery lasts, and once when it ends.
 *
 * <p>The recovery ends at the first commit after the stall, with Kafka Streams RUNNING and nothing
 * restoring, seen at a later look than the stall's (the fencing shows at the first commit after the
 * stall, within a commit interval); or, when nothing arrives to commit, once it has been RUNNING
 * with nothing restoring for {@link #QUIET_LOOKS} looks in a row.
 */
public final class StallRecovery {

  /**
   * Looks in a row, a second apart, with Kafka Streams RUNNING and nothing restoring, after which a
   * recovery with nothing to commit has ended: a thread fenced by the stall shows it within a
   * commit interval of the first commit it tries.
   */
  static final int QUIET_LOOKS = 5;

  /** Kafka's timeouts that a stall may outlive, as the processor's clients were given them. */
  public record Timeouts(Duration transaction, Duration session) {}

  /**
   * What Kafka Streams says of itself at one look: its state, and its stream threads' commits and
   * records processed so far.
   */
  public record StreamsView(KafkaStreams.State state, long commits, long processed) {}

  /** What a stall outlived: the tag of the counter of stalls. */
  public enum Outlived {
    NOTHING("nothing"),
    TRANSACTION_TIMEOUT("transaction-timeout"),
    SESSION_TIMEOUT("session-timeout");

    private final String tag;

    Outlived(final String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  private volatile Timeouts timeouts;
  private final RestoreProgress restores;
  private final Clock clock;
  private final Logger log;
  private final Consumer<Outlived> counted;
  private Recovering recovering;
  private volatile String reason;

  /**
   * @param counted told of every stall noticed, with what it outlived (a counter of stalls)
   */
  public StallRecovery(
      final Timeouts timeouts,
      final RestoreProgress restores,
      final Clock clock,
      final Logger log,
      final Consumer<Outlived> counted) {
    this.timeouts = timeouts;
    this.restores = restores;
    this.clock = clock;
    this.log = log;
    this.counted = counted;
  }

  /**
   * One look, every tick of the watch: {@code stall} is what the detector noticed at this tick,
   * {@code streams} what Kafka Streams says now.
   */
  public synchronized void observe(final Optional<Duration> stall, final StreamsView streams) {
    final Instant now = clock.instant();
    stall.ifPresent(length -> noticed(length, now, streams));
    if (recovering == null) {
      reason = null;
      return;
    }
    recovering.looks++;
    if (recovered(streams)) {
      log.info(
          "recovered from the {} stall in {}",
          seconds(recovering.length),
          seconds(Duration.between(recovering.since, now)));
      recovering = null;
      reason = null;
      return;
    }
    reason = recovering.line() + ": " + where(streams);
    recovering.logged.holds(reason, now);
  }

  /** The timeouts it compares stalls with. */
  public Timeouts timeouts() {
    return timeouts;
  }

  /** Kafka Streams was restarted with transactions that time out after {@code transaction}. */
  public synchronized void transactionTimeoutRaised(final Duration transaction) {
    timeouts = new Timeouts(transaction, timeouts.session());
  }

  /** Why the processor is not ready while it recovers from a stall, or empty when it is not. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  private void noticed(final Duration length, final Instant now, final StreamsView streams) {
    final Outlived outlived = outlived(length);
    counted.accept(outlived);
    if (outlived == Outlived.NOTHING) {
      log.warn(
          "the process stood still for {} (a long collector pause, a starved machine or a paused"
              + " container): shorter than the transaction timeout ({}), so it has nothing to"
              + " recover",
          seconds(length),
          seconds(timeouts.transaction()));
      return;
    }
    recovering = new Recovering(length, outlived, now, streams.commits());
    // The first look logs the line with where the recovery stands; this one says what comes.
    log.warn(
        "the process stood still for {} (a long collector pause, a starved machine or a paused"
            + " container), {}: its stream threads are fenced at their next commit, close their"
            + " tasks, rejoin the group and restore the tasks' state from the changelogs before"
            + " they process again; nothing is lost, and what the aborted transaction held is"
            + " processed again",
        seconds(length),
        outlivedWhat(outlived));
  }

  private Outlived outlived(final Duration length) {
    if (length.compareTo(timeouts.session()) >= 0) {
      return Outlived.SESSION_TIMEOUT;
    }
    return length.compareTo(timeouts.transaction()) >= 0
        ? Outlived.TRANSACTION_TIMEOUT
        : Outlived.NOTHING;
  }

  private boolean recovered(final StreamsView streams) {
    if (streams.state() != KafkaStreams.State.RUNNING || restores.inProgress()) {
      recovering.steadyLooks = 0;
      return false;
    }
    recovering.steadyLooks++;
    return recovering.looks > 1 && streams.commits() > recovering.commitsAtThaw
        || recovering.steadyLooks >= QUIET_LOOKS;
  }

  private String where(final StreamsView streams) {
    final Optional<String> restoring = restores.describe();
    if (streams.state() != KafkaStreams.State.RUNNING) {
      return "kafka streams is "
          + streams.state()
          + restoring.map(progress -> ", " + progress).orElse("");
    }
    return restoring.orElse("waiting for the stream threads' first commit since");
  }

  private String outlivedWhat(final Outlived outlived) {
    final String transaction =
        "longer than the transaction timeout (" + seconds(timeouts.transaction()) + ")";
    return outlived == Outlived.SESSION_TIMEOUT
        ? transaction + " and the session timeout (" + seconds(timeouts.session()) + ")"
        : transaction;
  }

  /** "3.2 s" under ten seconds, "62 s" above. */
  static String seconds(final Duration length) {
    final double seconds = length.toMillis() / 1000.0;
    return seconds < 10
        ? String.format(Locale.ROOT, "%.1f s", seconds)
        : String.format(Locale.ROOT, "%d s", Math.round(seconds));
  }

  /** A recovery under way: from which stall, since when, and how it was last reported. */
  private final class Recovering {
    private final Duration length;
    private final Outlived outlived;
    private final Instant since;
    private final long commitsAtThaw;
    private int looks;
    private int steadyLooks;
    private final MinuteLine logged = new MinuteLine(log);

    private Recovering(
        final Duration length,
        final Outlived outlived,
        final Instant since,
        final long commitsAtThaw) {
      this.length = length;
      this.outlived = outlived;
      this.since = since;
      this.commitsAtThaw = commitsAtThaw;
    }

    private String line() {
      return "recovering from a "
          + seconds(length)
          + " stall that ended at "
          + since.truncatedTo(ChronoUnit.SECONDS)
          + ", "
          + outlivedWhat(outlived);
    }
  }
}
