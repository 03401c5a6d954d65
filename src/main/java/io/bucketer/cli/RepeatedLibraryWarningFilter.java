package io.bucketer.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Lets a library's warning that repeats (the same logger, the same message format) through at most
 * once a minute. A broker that goes away makes each Kafka client warn "Connection to node ... could
 * not be established" at every reconnect, about once a second per client: a night of it would bury
 * everything else. bucketer's own loggers say a lasting failure once a minute themselves, and are
 * never filtered; other levels pass.
 *
 * <p>Logback's {@code DuplicateMessageFilter} drops repetitions for good after a count, and keys on
 * the format alone: it would hide the line of another library, and a cluster that goes away again
 * next week. Hence this small filter.
 *
 * <p>An appender's filter, not a turbo filter: logback asks every turbo filter at each logging call
 * and each {@code isTraceEnabled()}, before the level, and Kafka Streams asks that once per record
 * (a live profile found the chain at 5 % of the stream thread); an appender's filter sees only the
 * lines that are written.
 */
public final class RepeatedLibraryWarningFilter extends Filter<ILoggingEvent> {

  /** How often the same warning passes. */
  static final Duration EVERY = Duration.ofMinutes(1);

  /**
   * Formats are constants of code, so the keys are few; a library that builds its messages by
   * concatenation would make a key per message, and memory must stay bounded: then it starts over.
   */
  private static final int MAX_KEYS = 1024;

  private final Supplier<Instant> clock;
  private final Map<String, Instant> lastPassed = new ConcurrentHashMap<>();

  public RepeatedLibraryWarningFilter() {
    this(Instant::now);
  }

  /** With the time from {@code clock}: a test's. */
  RepeatedLibraryWarningFilter(final Supplier<Instant> clock) {
    this.clock = clock;
  }

  @Override
  public FilterReply decide(final ILoggingEvent event) {
    final String format = event.getMessage();
    final String logger = event.getLoggerName();
    if (event.getLevel() != Level.WARN
        || format == null
        || logger == null
        || logger.startsWith("io.bucketer")) {
      return FilterReply.NEUTRAL;
    }
    if (lastPassed.size() > MAX_KEYS) {
      lastPassed.clear();
    }
    final Instant now = clock.get();
    final String key = logger + '\n' + format;
    final boolean[] passes = {false};
    lastPassed.compute(
        key,
        (ignored, last) -> {
          passes[0] = last == null || Duration.between(last, now).compareTo(EVERY) >= 0;
          return passes[0] ? now : last;
        });
    return passes[0] ? FilterReply.NEUTRAL : FilterReply.DENY;
  }
}
