package io.bucketer.sink;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * A warning that a retry loop would otherwise repeat at every attempt (MongoDB away for an hour
 * writes hundreds of lines): logged at the first failure, then at most once per interval while the
 * failures last, with how many attempts failed since, and once more, at INFO, when they end.
 * Written here because slf4j and logback offer no such rate limit on one message.
 */
public final class RepeatedWarning {

  /** How often a lasting failure is logged again. */
  static final Duration EVERY = Duration.ofMinutes(1);

  private final Logger log;
  private final Clock clock;
  private Instant lastLogged;
  private int failedSinceLogged;
  private int failedInAll;

  public RepeatedWarning(final Logger log, final Clock clock) {
    this.log = log;
    this.clock = clock;
  }

  /** One failed attempt: {@code line} is logged if it is the first, or the last is old enough. */
  public void failed(final String line) {
    failedInAll++;
    failedSinceLogged++;
    final Instant now = clock.instant();
    if (lastLogged == null || Duration.between(lastLogged, now).compareTo(EVERY) >= 0) {
      log.warn(
          failedSinceLogged == 1
              ? line
              : line + " (" + failedSinceLogged + " attempts failed since the last line)");
      lastLogged = now;
      failedSinceLogged = 0;
    }
  }

  /** The attempt succeeded: says so once, if a failure was logged, and starts over. */
  public void cleared(final String line) {
    if (failedInAll > 0) {
      log.info("{}, after {} failed attempt(s)", line, failedInAll);
    }
    lastLogged = null;
    failedSinceLogged = 0;
    failedInAll = 0;
  }
}
