package io.bucketer.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.LoggingEvent;

/** The event a logging call makes, for a test of a filter or an encoder. */
public final class LogEvents {

  private LogEvents() {}

  /**
   * What {@code logger} would hand its appenders for a call with {@code format} and {@code
   * arguments}; a throwable last among the arguments becomes the event's own, as in a real call.
   */
  public static LoggingEvent event(
      final Logger logger,
      final Level level,
      final String format,
      final Throwable thrown,
      final Object... arguments) {
    return new LoggingEvent(Logger.class.getName(), logger, level, format, thrown, arguments);
  }
}
