package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Starting the processor with secrets in its settings logs none of them, with the Kafka clients'
 * and the MongoDB driver's loggers turned up to INFO so that their configuration dumps are captured
 * too.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecretsNotLoggedIT {

  private static final String MONGO_PASSWORD = "mongo-Pa55-0f9e";
  private static final String TRUSTSTORE_PASSWORD = "truststore-Pa55-7c1d";
  private static final String JAAS_PASSWORD = "jaas-Pa55-42ab";
  private static final String REGISTRY_PASSWORD = "registry-Pa55-9d3e";
  private static final List<String> CAPTURED_LOGGERS =
      List.of("io.bucketer", "org.apache.kafka", "org.mongodb");

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldLogNoSecretWhenItStarts() throws Exception {
    final InProcessRun run =
        new InProcessRun(infrastructure.endpoints(), stateDir, 1, settingsWithSecrets());

    final ListAppender<ILoggingEvent> captured = captureAtInfo();
    try {
      try (run;
          BucketerApp app = run.start()) {
        // mongo-java-server knows no SCRAM, so the sink's first attempt fails on authentication
        // and its retry warning, which carries the driver's error about the credential, is
        // captured too.
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    app.streamsState() == KafkaStreams.State.RUNNING
                        && render(snapshot(captured))
                            .contains("cannot create the bucket indexes yet"));
      }
    } finally {
      release(captured);
    }

    final String log = render(snapshot(captured));
    // The clients' dumps were captured, so a leak in them would be seen.
    assertThat(log).contains("StreamsConfig values").contains("ConsumerConfig values");
    assertThat(log).contains("ssl.truststore.password = [hidden]");
    assertThat(log)
        .doesNotContain(MONGO_PASSWORD)
        .doesNotContain(TRUSTSTORE_PASSWORD)
        .doesNotContain(JAAS_PASSWORD)
        .doesNotContain(REGISTRY_PASSWORD);
  }

  /** Secrets in every setting that holds one: the registry's and MongoDB's, and Kafka's. */
  private static Map<String, String> settingsWithSecrets() {
    final URI server = URI.create(infrastructure.mongoUri());
    final Map<String, String> settings = new HashMap<>();
    settings.put(InputSettings.SCHEMA_REGISTRY_USER_INFO, "reader:" + REGISTRY_PASSWORD);
    settings.put(
        MongoSettings.URI,
        "mongodb://bucketer:"
            + MONGO_PASSWORD
            + "@"
            + server.getHost()
            + ":"
            + server.getPort()
            + "/?authSource=admin&serverSelectionTimeoutMS=1000");
    settings.put(KafkaSettings.SERIES_PARTITIONS, "1");
    settings.put(MongoSettings.SINK_WRITE_TIMEOUT, "2s");
    // Unused on a PLAINTEXT listener, but every Kafka client receives them and dumps its config.
    settings.put(KafkaSettings.CLIENT_PREFIX + "ssl.truststore.password", TRUSTSTORE_PASSWORD);
    settings.put(
        KafkaSettings.CLIENT_PREFIX + "sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
            + " password=\""
            + JAAS_PASSWORD
            + "\";");
    return settings;
  }

  private static ListAppender<ILoggingEvent> captureAtInfo() {
    final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.setContext(context);
    appender.start();
    for (final String name : CAPTURED_LOGGERS) {
      final Logger logger = context.getLogger(name);
      logger.setLevel(Level.INFO);
      logger.addAppender(appender);
      // Keeps the build's console quiet: the capture is what the test reads.
      logger.setAdditive(false);
    }
    return appender;
  }

  private static void release(final ListAppender<ILoggingEvent> appender) {
    final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    for (final String name : CAPTURED_LOGGERS) {
      final Logger logger = context.getLogger(name);
      logger.detachAppender(appender);
      logger.setLevel(null);
      logger.setAdditive(true);
    }
    appender.stop();
  }

  /** AppenderBase appends while holding the appender's lock: copying under it is safe. */
  private static List<ILoggingEvent> snapshot(final ListAppender<ILoggingEvent> appender) {
    synchronized (appender) {
      return new ArrayList<>(appender.list);
    }
  }

  /** Each event's message and the messages of its causes, one event per line. */
  private static String render(final List<ILoggingEvent> events) {
    return events.stream()
        .map(
            event -> {
              final StringBuilder text = new StringBuilder(event.getFormattedMessage());
              for (IThrowableProxy cause = event.getThrowableProxy();
                  cause != null;
                  cause = cause.getCause()) {
                text.append(" | ").append(cause.getClassName());
                text.append(": ").append(cause.getMessage());
              }
              return text.toString();
            })
        .collect(Collectors.joining("\n"));
  }
}
