package io.bucketer.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * What some loggers write while it is open, kept for a test to read, at a level the test chooses
 * (turned up, so that the Kafka clients' configuration dumps are in it). The build's console stays
 * quiet meanwhile; closing puts the loggers back as they were.
 */
public final class CapturedLog implements AutoCloseable {

  private final List<String> loggers;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private CapturedLog(final Level level, final List<String> loggers) {
    this.loggers = List.copyOf(loggers);
    final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    appender.setContext(context);
    appender.start();
    for (final String name : loggers) {
      final Logger logger = context.getLogger(name);
      logger.setLevel(level);
      logger.addAppender(appender);
      logger.setAdditive(false);
    }
  }

  /** Captures the loggers named (and those below them) at {@code level} and above. */
  public static CapturedLog of(final Level level, final String... loggers) {
    return new CapturedLog(level, List.of(loggers));
  }

  /** Keeps out what {@code filter} denies, as the product's appender does with its filters. */
  public CapturedLog filteredBy(final Filter<ILoggingEvent> filter) {
    filter.start();
    appender.addFilter(filter);
    return this;
  }

  /**
   * Each event's message with its arguments, and the class and message of each of its causes, one
   * event per line.
   */
  public String text() {
    final List<ILoggingEvent> events;
    // AppenderBase appends while holding the appender's lock: copying under it is safe.
    synchronized (appender) {
      events = new ArrayList<>(appender.list);
    }
    return events.stream().map(CapturedLog::render).collect(Collectors.joining("\n"));
  }

  private static String render(final ILoggingEvent event) {
    final StringBuilder text = new StringBuilder(event.getFormattedMessage());
    for (IThrowableProxy cause = event.getThrowableProxy();
        cause != null;
        cause = cause.getCause()) {
      text.append(" | ").append(cause.getClassName()).append(": ").append(cause.getMessage());
    }
    return text.toString();
  }

  @Override
  public void close() {
    final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    for (final String name : loggers) {
      final Logger logger = context.getLogger(name);
      logger.detachAppender(appender);
      logger.setLevel(null);
      logger.setAdditive(true);
    }
    appender.stop();
  }
}
