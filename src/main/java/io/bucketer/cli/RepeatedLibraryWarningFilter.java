package io.bucketer.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Marker;

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
 */
public final class RepeatedLibraryWarningFilter extends TurboFilter {

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
  public FilterReply decide(
      final Marker marker,
      final Logger logger,
      final Level level,
      final String format,
      final Object[] params,
      final Throwable t) {
    if (level != Level.WARN
        || format == null
        || logger == null
        || logger.getName().startsWith("io.bucketer")) {
      return FilterReply.NEUTRAL;
    }
    if (lastPassed.size() > MAX_KEYS) {
      lastPassed.clear();
    }
    final Instant now = clock.get();
    final String key = logger.getName() + '\n' + format;
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
