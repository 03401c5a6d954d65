package io.bucketer.app;

import io.bucketer.kafkaaccess.NotAuthorised;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Checks once, when Kafka Streams first runs, that the principal may purge the repartition topic
 * (DELETE). Kafka Streams creates repartition topics with unlimited retention and deletes what
 * their readers consumed; refused, it ignores the refusal, and the topic grows until the disks are
 * full. Nothing else would report it, so its lack is fatal here, like any other missing ACL.
 */
final class PurgePermission implements KafkaStreams.StateListener {

  private final KafkaStreams.StateListener next;
  private final String repartitionTopic;
  private final NotAuthorised notAuthorised;
  private final FatalFailure fatal;
  private final AtomicBoolean checked = new AtomicBoolean();

  /**
   * @param next the listener that hears every change first
   * @param repartitionTopic the topic to check
   */
  PurgePermission(
      final KafkaStreams.StateListener next,
      final String repartitionTopic,
      final NotAuthorised notAuthorised,
      final FatalFailure fatal) {
    this.next = next;
    this.repartitionTopic = repartitionTopic;
    this.notAuthorised = notAuthorised;
    this.fatal = fatal;
  }

  @Override
  public void onChange(final KafkaStreams.State now, final KafkaStreams.State before) {
    next.onChange(now, before);
    // RUNNING: the repartition topic exists. The stream thread calls this: ask on another one.
    if (now == KafkaStreams.State.RUNNING && checked.compareAndSet(false, true)) {
      final Thread thread =
          new Thread(
              () ->
                  notAuthorised
                      .unlessAllowed(repartitionTopic, AclOperation.DELETE)
                      .ifPresent(fatal::record),
              "bucketer-purge-permission");
      thread.setDaemon(true);
      thread.start();
    }
  }
}
