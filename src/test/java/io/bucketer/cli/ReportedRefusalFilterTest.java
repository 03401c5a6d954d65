package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import io.bucketer.testing.LogEvents;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class ReportedRefusalFilterTest {

  private final LoggerContext context = new LoggerContext();
  private final ReportedRefusalFilter filter = new ReportedRefusalFilter();
  private final Logger streams = context.getLogger("org.apache.kafka.streams.KafkaStreams");

  @Test
  void shouldDropKafkasTraceOfARefusalWhetherPassedAsThrowableOrLastParameter() {
    final Exception refusal =
        new KafkaException("wrapped", new TopicAuthorizationException(Set.of("in")));

    assertThat(decide(streams, Level.ERROR, "failed", null, refusal)).isEqualTo(FilterReply.DENY);
    assertThat(
            decide(streams, Level.ERROR, "opted to {}.", new Object[] {"SHUTDOWN", refusal}, null))
        .isEqualTo(FilterReply.DENY);
  }

  @Test
  void shouldDropKafkasTraceOfARefusedHandshakeOrLogin() {
    final Exception handshake =
        new KafkaException(
            "wrapped",
            new SslAuthenticationException(
                "SSL handshake failed", new SSLHandshakeException("PKIX path building failed")));
    final Exception login =
        new SaslAuthenticationException("Authentication failed: invalid credentials");

    assertThat(decide(streams, Level.ERROR, "failed", null, handshake)).isEqualTo(FilterReply.DENY);
    assertThat(decide(streams, Level.WARN, "failed", null, login)).isEqualTo(FilterReply.DENY);
  }

  @Test
  void shouldDropKafkasTraceOfClosingAConnectionWhoseAuthenticationFailed() {
    final IllegalStateException closing = new IllegalStateException("handshake is not completed");
    closing.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "org.apache.kafka.common.network.SslTransportLayer", "removeInterestOps", null, 834),
          new StackTraceElement(
              "org.apache.kafka.common.network.KafkaChannel",
              "delayCloseOnAuthenticationFailure",
              null,
              323)
        });
    final Logger selector = context.getLogger("org.apache.kafka.common.network.Selector");

    assertThat(decide(selector, Level.WARN, "Unexpected error", null, closing))
        .isEqualTo(FilterReply.DENY);
    assertThat(
            decide(
                selector,
                Level.WARN,
                "Unexpected error",
                null,
                new IllegalStateException("handshake is not completed")))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void shouldLetEveryOtherEventPass() {
    final Exception refusal = new TopicAuthorizationException(Set.of("in"));

    assertThat(decide(streams, Level.WARN, "slow", null, new TimeoutException("t")))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(decide(streams, Level.WARN, "no trace", null, null)).isEqualTo(FilterReply.NEUTRAL);
    // bucketer's own loggers are never filtered
    assertThat(
            decide(
                context.getLogger("io.bucketer.app.BucketerApp"), Level.ERROR, "x", null, refusal))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  /** The filter's answer to the event a logging call with these arguments makes. */
  private FilterReply decide(
      final Logger logger,
      final Level level,
      final String format,
      final Object[] params,
      final Throwable thrown) {
    return filter.decide(LogEvents.event(logger, level, format, thrown, params));
  }
}
