package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import io.bucketer.testing.LogEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A broker away for two minutes: Kafka's reconnect warning, once a second, passes three times. */
class RepeatedLibraryWarningFilterTest {

  private static final String CONNECT =
      "[Consumer clientId=app-StreamThread-1-consumer, groupId=app] Connection to node {} ({})"
          + " could not be established. Node may not be available.";

  private final LoggerContext context = new LoggerContext();
  private final Logger networkClient = context.getLogger("org.apache.kafka.clients.NetworkClient");
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-25T12:00:00Z"));
  private final RepeatedLibraryWarningFilter filter = new RepeatedLibraryWarningFilter(now::get);

  @Test
  void shouldLetTheSameLibraryWarningPassOnceAMinute() {
    final List<Integer> passedAtSecond = new ArrayList<>();
    for (int second = 0; second <= 120; second++) {
      if (warn(networkClient, CONNECT) == FilterReply.NEUTRAL) {
        passedAtSecond.add(second);
      }
      now.set(now.get().plusSeconds(1));
    }

    assertThat(passedAtSecond).containsExactly(0, 60, 120);
  }

  @Test
  void shouldKeepAnotherFormatOrLoggerApart() {
    assertThat(warn(networkClient, CONNECT)).isEqualTo(FilterReply.NEUTRAL);
    assertThat(warn(networkClient, CONNECT)).isEqualTo(FilterReply.DENY);

    assertThat(warn(networkClient, "[Producer clientId=p] Connection to node {} failed"))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(warn(context.getLogger("org.apache.kafka.clients.admin.KafkaAdminClient"), CONNECT))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void shouldNeverFilterBucketersOwnLinesNorOtherLevels() {
    final Logger own = context.getLogger("io.bucketer.app.ClusterWait");
    for (int i = 0; i < 3; i++) {
      assertThat(warn(own, "{}: retrying until it answers")).isEqualTo(FilterReply.NEUTRAL);
      assertThat(filter.decide(LogEvents.event(networkClient, Level.ERROR, CONNECT, null)))
          .isEqualTo(FilterReply.NEUTRAL);
      assertThat(filter.decide(LogEvents.event(networkClient, Level.INFO, CONNECT, null)))
          .isEqualTo(FilterReply.NEUTRAL);
    }
    // a line without a message must not use up the minute
    assertThat(filter.decide(LogEvents.event(networkClient, Level.WARN, null, null)))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(warn(networkClient, CONNECT)).isEqualTo(FilterReply.NEUTRAL);
  }

  private FilterReply warn(final Logger logger, final String format) {
    return filter.decide(LogEvents.event(logger, Level.WARN, format, null, -1, "localhost"));
  }
}
