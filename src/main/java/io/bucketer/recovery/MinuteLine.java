package io.bucketer.recovery;

import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * A WARN line that a condition lasting for minutes would repeat at every look: logged at the first,
 * then at most once a minute while it lasts. The sink's {@code RepeatedWarning} counts failed
 * attempts between its lines, which a state looked at every second has none of.
 */
final class MinuteLine {

  static final Duration EVERY = Duration.ofMinutes(1);

  private final Logger log;
  private Instant lastLogged;

  MinuteLine(final Logger log) {
    this.log = log;
  }

  /** {@code line} holds at {@code now}: logged if it is the first look or the last line is old. */
  void holds(final String line, final Instant now) {
    if (lastLogged == null || Duration.between(lastLogged, now).compareTo(EVERY) >= 0) {
      log.warn(line);
      lastLogged = now;
    }
  }

  /** The condition ended: the next one is logged at its first look. */
  void ended() {
    lastLogged = null;
  }
}
