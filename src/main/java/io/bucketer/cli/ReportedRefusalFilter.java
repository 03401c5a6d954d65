package io.bucketer.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import io.bucketer.ingest.SchemaRegistryException;
import io.bucketer.ingest.SchemaRegistryUnavailableException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Drops the stack traces that Kafka's own classes log for a refusal by the cluster: its authorizer
 * refused an operation, or its listener refused the TLS handshake or the login; or, thrown on a
 * stream thread, by the schema registry (a login refused, a certificate not trusted). bucketer
 * reports such a refusal itself, in one line naming the missing ACL or the failed trust or login,
 * and ends (see {@code io.bucketer.kafkaaccess.KafkaFailures}); Kafka Streams would log the same
 * cause again as a stack trace at ERROR. Events without a trace, and every other cause, pass.
 *
 * <p>An appender's filter, for the reason {@link RepeatedLibraryWarningFilter} gives.
 */
public final class ReportedRefusalFilter extends Filter<ILoggingEvent> {

  private static final int MAX_DEPTH = 32;
  private static final String CHANNEL = "org.apache.kafka.common.network.KafkaChannel";

  @Override
  public FilterReply decide(final ILoggingEvent event) {
    final String logger = event.getLoggerName();
    if (logger == null || !logger.startsWith("org.apache.kafka")) {
      return FilterReply.NEUTRAL;
    }
    // logback took a trailing throwable among the arguments for the event's own already
    final Throwable thrown =
        event.getThrowableProxy() instanceof ThrowableProxy proxy ? proxy.getThrowable() : null;
    return isRefusal(thrown) || isAftermathOfRefusal(thrown)
        ? FilterReply.DENY
        : FilterReply.NEUTRAL;
  }

  /**
   * Kafka's own error while it closes a connection whose authentication failed: with a client
   * certificate refused, its Selector logs "handshake is not completed" with a stack trace at WARN
   * (a quirk of the TLS 1.3 close), before the refusal itself. The refusal is said; this is noise.
   */
  private static boolean isAftermathOfRefusal(final Throwable thrown) {
    if (thrown == null) {
      return false;
    }
    for (final StackTraceElement frame : thrown.getStackTrace()) {
      if (frame.getClassName().equals(CHANNEL)
          && frame.getMethodName().equals("delayCloseOnAuthenticationFailure")) {
        return true;
      }
    }
    return false;
  }

  /** The registry refused or could not be trusted: bucketer says it in one line and ends. */
  private static boolean isRegistryRefusal(final Throwable cause) {
    return cause instanceof SchemaRegistryException
        && !(cause instanceof SchemaRegistryUnavailableException);
  }

  private static boolean isRefusal(final Throwable thrown) {
    Throwable cause = thrown;
    for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++) {
      if (cause instanceof AuthorizationException
          || cause instanceof AuthenticationException
          || isRegistryRefusal(cause)) {
        return true;
      }
      cause = cause.getCause();
    }
    return false;
  }
}
