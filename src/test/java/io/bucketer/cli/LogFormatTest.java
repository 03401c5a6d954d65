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
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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

  /** Configures a fresh context from the shipped file; encodes one event as its appender would. */
  @SuppressWarnings("unchecked")
  private static String logOneLine(final String format) throws Exception {
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
    try {
      final Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
      final OutputStreamAppender<ILoggingEvent> appender =
          (OutputStreamAppender<ILoggingEvent>) root.iteratorForAppenders().next();
      final Logger logger = context.getLogger("bucketer.test");
      final LoggingEvent event =
          new LoggingEvent(
              Logger.class.getName(),
              logger,
              Level.INFO,
              "started {} threads",
              null,
              new Object[] {3});
      event.setThreadName("main");
      return new String(appender.getEncoder().encode(event), StandardCharsets.UTF_8);
    } finally {
      context.stop();
    }
  }
}
