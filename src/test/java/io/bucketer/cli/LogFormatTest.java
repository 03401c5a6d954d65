package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import io.bucketer.testing.LogEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.Test;

/** The shipped logback.xml, loaded into a context of its own: text by default, JSON on request. */
class LogFormatTest {

  private static final Path SHIPPED = Path.of("src/main/resources/logback.xml");

  @Test
  void shouldLogTextLinesByDefault() throws Exception {
    final String line = logOneLine(null);

    assertThat(line)
        .contains(" INFO  [main] bucketer.test - started 3 threads")
        .doesNotContain("{");
  }

  @Test
  void shouldLogOneJsonObjectPerLineWhenAsked() throws Exception {
    final String line = logOneLine("json");

    assertThat(line.strip()).startsWith("{").endsWith("}").doesNotContain("\n");
    assertThat(line)
        .contains("\"message\":\"started 3 threads\"")
        .contains("\"level\":\"INFO\"")
        .contains("\"logger_name\":\"bucketer.test\"");
  }

  @Test
  void shouldFilterOnTheAppenderAndLeaveTheLevelChecksAlone() throws Exception {
    for (final String format : new String[] {null, "json"}) {
      final LoggerContext context = configured(format);
      try {
        // a turbo filter would be asked at every isTraceEnabled() of Kafka's per-record code
        assertThat(context.getTurboFilterList()).as(format).isEmpty();
        final OutputStreamAppender<ILoggingEvent> appender = rootAppender(context);
        final LoggingEvent refusal =
            LogEvents.event(
                context.getLogger("org.apache.kafka.streams.KafkaStreams"),
                Level.ERROR,
                "failed",
                new SaslAuthenticationException("invalid credentials"),
                "SHUTDOWN");
        final LoggingEvent reconnect =
            LogEvents.event(
                context.getLogger("org.apache.kafka.clients.NetworkClient"),
                Level.WARN,
                "Connection to node {} could not be established.",
                null,
                -1);

        assertThat(appender.getFilterChainDecision(refusal)).as(format).isEqualTo(FilterReply.DENY);
        assertThat(appender.getFilterChainDecision(reconnect))
            .as(format)
            .isEqualTo(FilterReply.NEUTRAL);
        assertThat(appender.getFilterChainDecision(reconnect))
            .as(format)
            .isEqualTo(FilterReply.DENY);
      } finally {
        context.stop();
      }
    }
  }

  /** Configures a fresh context from the shipped file; encodes one event as its appender would. */
  private static String logOneLine(final String format) throws Exception {
    final LoggerContext context = configured(format);
    try {
      final LoggingEvent event =
          LogEvents.event(
              context.getLogger("bucketer.test"), Level.INFO, "started {} threads", null, 3);
      event.setThreadName("main");
      return new String(rootAppender(context).getEncoder().encode(event), StandardCharsets.UTF_8);
    } finally {
      context.stop();
    }
  }

  private static LoggerContext configured(final String format) throws Exception {
    final LoggerContext context = new LoggerContext();
    // A context made by hand has none; the JSON encoder reads the MDC of every event.
    context.setMDCAdapter(new LogbackMDCAdapter());
    if (format != null) {
      // Substitution looks up context properties before system properties and the environment.
      context.putProperty("BUCKETER_LOG_FORMAT", format);
    }
    final JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(SHIPPED.toFile());
    // A warning makes logback print its whole status to stdout, into the demo's output.
    assertThat(new StatusUtil(context).getHighestLevel(0)).isLessThan(Status.WARN);
    return context;
  }

  @SuppressWarnings("unchecked")
  private static OutputStreamAppender<ILoggingEvent> rootAppender(final LoggerContext context) {
    return (OutputStreamAppender<ILoggingEvent>)
        context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().next();
  }
}
