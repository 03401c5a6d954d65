package io.bucketer.rescale;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Handover;
import io.bucketer.kafkaaccess.AdminRequests;
import io.bucketer.topics.BucketKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One rescale, asked of the cluster: {@link #plan} checks that it may go ahead, works out the
 * handover ({@link RescalePlan}) and starts the new layout's consumer group on the input where the
 * running deployment's stands; {@link #status} says where both stand and when the replaced one may
 * stop ({@link HandoverProgress}). Kafka's admin client alone: the deployments themselves are
 * started and stopped by whoever runs them.
 */
public final class Rescale {

  /** How long it waits for each answer of the cluster before it gives up. */
  public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  private static final String SEE = " — see docs/sizing.md 'Going past series.partitions'";

  /** The settings of the deployment the command runs with. */
  public record Settings(
      Map<String, Object> kafkaProperties,
      String applicationId,
      String sinkGroup,
      String inputTopic,
      String bucketsTopic,
      int seriesPartitions,
      boolean inputKeyedBySensor,
      List<Granularity> granularities,
      Duration grace,
      Duration latenessHorizon,
      Duration maxFutureSkew,
      Handover handover) {}

  private final Admin admin;
  private final AdminRequests requests;
  private final Settings settings;
  private final Consumer<String> lines;

  Rescale(final Admin admin, final Settings settings, final Consumer<String> lines) {
    this.admin = admin;
    this.requests = new AdminRequests(admin, ANSWER_TIMEOUT);
    this.settings = settings;
    this.lines = lines;
  }

  /**
   * Plans a rescale of the running deployment ({@code settings}) to {@code newPartitions} under
   * {@code newApplicationId}, prints it, and (not in a dry run) starts the new layout's group on
   * the input where the running deployment's stands.
   *
   * @throws RescaleRefusedException when it must not go ahead; nothing was changed
   * @throws KafkaException when the cluster fails or refuses a request
   */
  public static RescalePlan plan(
      final Settings settings,
      final String newApplicationId,
      final int newPartitions,
      final Duration lead,
      final boolean dryRun,
      final Clock clock,
      final Consumer<String> lines) {
    try (Admin admin = Admin.create(adminProperties(settings))) {
      return new Rescale(admin, settings, lines)
          .plan(newApplicationId, newPartitions, lead, dryRun, clock.instant());
    }
  }

  /**
   * Says where the deployment of {@code settings} and {@code otherApplicationId}, the two sides of
   * a rescale, stand on the input, and whether the replaced one may stop.
   *
   * @throws RescaleRefusedException when {@code settings} are neither side of a rescale
   * @throws KafkaException when the cluster fails or refuses a request
   */
  public static HandoverProgress status(
      final Settings settings,
      final String otherApplicationId,
      final Clock clock,
      final Consumer<String> lines) {
    try (Admin admin = Admin.create(adminProperties(settings))) {
      return new Rescale(admin, settings, lines).status(otherApplicationId, clock.instant());
    }
  }

  /**
   * Reads the buckets written since a window before the handover and says whether they agree with
   * it: each written by one deployment, on its side ({@link BucketAgreement}). Reads every bucket
   * closed since then, once, with a consumer of its own that joins no group.
   *
   * @throws RescaleRefusedException when {@code settings} are neither side of a rescale
   * @throws KafkaException when the cluster fails or refuses a request
   */
  public static BucketAgreement checkBuckets(
      final Settings settings, final String otherApplicationId, final Consumer<String> lines) {
    final Handover handover = sideOf(settings);
    final boolean replaced = handover.side() == Handover.Side.BEFORE;
    final String replacedId = replaced ? settings.applicationId() : otherApplicationId;
    final String newId = replaced ? otherApplicationId : settings.applicationId();
    final long coarsest =
        settings.granularities().stream().mapToLong(Granularity::sizeMillis).max().orElse(0);
    final Instant since = Instant.ofEpochMilli(handover.handoverMillis() - coarsest);
    final Map<String, Object> properties = new HashMap<>(settings.kafkaProperties());
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.applicationId() + "-rescale-check");
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    final BucketAgreement agreement;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      agreement =
          BucketWriters.check(
              consumer,
              settings.bucketsTopic(),
              since,
              Instant.ofEpochMilli(handover.handoverMillis()),
              replacedId,
              newId,
              BucketKey::windowStartOf);
    }
    lines.accept(
        String.format(
            "buckets written since %s: %,d; by %s %,d, by %s %,d; written by both: %,d; on the"
                + " other's side of the handover: %,d%s",
            agreement.since(),
            agreement.buckets(),
            replacedId,
            agreement.byReplaced(),
            newId,
            agreement.byNew(),
            agreement.byBoth(),
            agreement.wrongSide(),
            agreement.agrees() ? "" : " — the deployments disagree: see docs/sizing.md"));
    return agreement;
  }

  private static Handover sideOf(final Settings settings) {
    if (settings.handover().side() == Handover.Side.NONE) {
      throw new RescaleRefusedException(
          "these settings are neither side of a rescale (no rescale.before or rescale.from):"
              + " run status with either deployment's settings"
              + SEE);
    }
    return settings.handover();
  }

  static Map<String, Object> adminProperties(final Settings settings) {
    return AdminRequests.properties(
        settings.kafkaProperties(), settings.applicationId() + "-rescale", ANSWER_TIMEOUT);
  }

  RescalePlan plan(
      final String newApplicationId,
      final int newPartitions,
      final Duration lead,
      final boolean dryRun,
      final Instant now) {
    refuseUnlessPlannable(newApplicationId, newPartitions);
    final List<TopicPartition> partitions = partitions(settings.inputTopic());
    final Map<TopicPartition, OffsetAndMetadata> committed =
        committed(settings.applicationId(), partitions);
    if (committed.isEmpty()) {
      throw new RescaleRefusedException(
          "group "
              + settings.applicationId()
              + " has committed nothing on "
              + settings.inputTopic()
              + ": nothing runs to hand over from; set series.partitions and start it");
    }
    if (!committed(newApplicationId, partitions).isEmpty()) {
      throw new RescaleRefusedException(
          "group "
              + newApplicationId
              + " has already committed offsets on "
              + settings.inputTopic()
              + ": choose an application.id never used, or follow the rescale under way with"
              + " bucketer rescale status"
              + SEE);
    }
    final Set<String> used = internalTopicsOf(newApplicationId);
    if (!used.isEmpty()) {
      throw new RescaleRefusedException(
          "topics of application.id "
              + newApplicationId
              + " exist ("
              + String.join(", ", used)
              + "): choose an application.id never used"
              + SEE);
    }
    final RescalePlan plan =
        RescalePlan.of(
            new RescalePlan.Inputs(
                settings.applicationId(),
                settings.seriesPartitions(),
                settings.inputKeyedBySensor(),
                settings.sinkGroup(),
                settings.granularities(),
                settings.grace(),
                settings.latenessHorizon(),
                settings.maxFutureSkew(),
                newApplicationId,
                newPartitions,
                lead),
            now);
    plan.lines(now).forEach(lines);
    final Map<TopicPartition, OffsetAndMetadata> starts =
        startsOfTheNewGroup(partitions, committed);
    if (dryRun) {
      lines.accept("dry run: group " + newApplicationId + " was not started; nothing was changed");
      return plan;
    }
    answer(admin.alterConsumerGroupOffsets(newApplicationId, starts).all());
    lines.accept(
        String.format(
            "group %s starts on %s where %s stands (%,d records behind the end)",
            newApplicationId,
            settings.inputTopic(),
            settings.applicationId(),
            behind(partitions, starts)));
    return plan;
  }

  private void refuseUnlessPlannable(final String newApplicationId, final int newPartitions) {
    if (settings.handover().side() != Handover.Side.NONE) {
      throw new RescaleRefusedException(
          "these settings are a side of a rescale under way (rescale.before or rescale.from):"
              + " follow it with bucketer rescale status, and plan the next once the replaced"
              + " deployment has stopped and the rescale.* settings are gone"
              + SEE);
    }

    if (newApplicationId.equals(settings.applicationId())) {
      throw new RescaleRefusedException(
          "the new layout needs an application.id of its own (its state, internal topics and"
              + " group): "
              + newApplicationId
              + " is the running deployment's");
    }
    if (newPartitions == settings.seriesPartitions() && !settings.inputKeyedBySensor()) {
      throw new RescaleRefusedException(
          settings.applicationId() + " already has series.partitions=" + newPartitions);
    }
  }

  /**
   * The running group's committed offsets, and the start of a partition it has committed nothing
   * on: every record it has not read yet is read by the new layout too, which leaves the readings
   * before the handover to it.
   */
  private Map<TopicPartition, OffsetAndMetadata> startsOfTheNewGroup(
      final List<TopicPartition> partitions,
      final Map<TopicPartition, OffsetAndMetadata> committed) {
    final Map<TopicPartition, ListOffsetsResultInfo> earliest =
        offsets(partitions, OffsetSpec.earliest());
    final Map<TopicPartition, OffsetAndMetadata> starts = new HashMap<>();
    for (final TopicPartition partition : partitions) {
      final OffsetAndMetadata commit = committed.get(partition);
      starts.put(
          partition,
          new OffsetAndMetadata(
              commit != null ? commit.offset() : earliest.get(partition).offset()));
    }
    return starts;
  }

  private long behind(
      final List<TopicPartition> partitions, final Map<TopicPartition, OffsetAndMetadata> starts) {
    final Map<TopicPartition, ListOffsetsResultInfo> ends =
        offsets(partitions, OffsetSpec.latest());
    return partitions.stream()
        .mapToLong(p -> Math.max(0, ends.get(p).offset() - starts.get(p).offset()))
        .sum();
  }

  HandoverProgress status(final String otherApplicationId, final Instant now) {
    final Handover handover = sideOf(settings);
    final boolean replaced = handover.side() == Handover.Side.BEFORE;
    final String replacedId = replaced ? settings.applicationId() : otherApplicationId;
    final String newId = replaced ? otherApplicationId : settings.applicationId();
    final Instant lateUntil = Instant.ofEpochMilli(handover.lateUntilMillis());
    final List<TopicPartition> partitions = partitions(settings.inputTopic());
    final Map<TopicPartition, OffsetAndMetadata> replacedCommitted =
        committed(replacedId, partitions);
    final Map<TopicPartition, OffsetAndMetadata> newCommitted = committed(newId, partitions);
    final Map<TopicPartition, ListOffsetsResultInfo> ends =
        offsets(partitions, OffsetSpec.latest());
    final Map<TopicPartition, ListOffsetsResultInfo> atLateUntil =
        offsets(partitions, OffsetSpec.forTimestamp(lateUntil.toEpochMilli()));
    final HandoverProgress progress =
        new HandoverProgress(
            Instant.ofEpochMilli(handover.handoverMillis()),
            lateUntil,
            partitions.stream()
                .map(
                    partition ->
                        new HandoverProgress.Partition(
                            partition.partition(),
                            ends.get(partition).offset(),
                            atLateUntil.get(partition).offset() >= 0
                                ? OptionalLong.of(atLateUntil.get(partition).offset())
                                : OptionalLong.empty(),
                            offsetOf(replacedCommitted.get(partition)),
                            offsetOf(newCommitted.get(partition))))
                .toList());
    describe(progress, replacedId, newId, now);
    return progress;
  }

  private void describe(
      final HandoverProgress progress,
      final String replacedId,
      final String newId,
      final Instant now) {
    lines.accept(
        String.format(
            "handover from %s to %s at %s (%s)",
            replacedId,
            newId,
            progress.handover(),
            now.isBefore(progress.handover())
                ? "in " + RescalePlan.until(now, progress.handover())
                : "passed"));
    lines.accept(
        String.format(
            "%s: %,d records behind the end of %s",
            replacedId, progress.replacedLag(), settings.inputTopic()));
    lines.accept(
        String.format(
            "%s: %,d records behind the end of %s",
            newId, progress.newLag(), settings.inputTopic()));
    if (progress.replacedMayStop(now)) {
      lines.accept(
          String.format(
              "%s may stop now: its late readings ended at %s and it has read every record"
                  + " written before then. Stop it, then remove the rescale.* settings from %s at"
                  + " its next restart",
              replacedId, progress.lateUntil(), newId));
    } else {
      lines.accept(
          String.format(
              "keep %s running: it takes the late readings before %s until %s (%s), and has %d of"
                  + " %d input partitions left to read up to then",
              replacedId,
              progress.handover(),
              progress.lateUntil(),
              now.isBefore(progress.lateUntil())
                  ? "in " + RescalePlan.until(now, progress.lateUntil())
                  : "passed",
              progress.partitionsLeft(now),
              progress.partitions().size()));
    }
  }

  private static OptionalLong offsetOf(final OffsetAndMetadata commit) {
    return commit == null ? OptionalLong.empty() : OptionalLong.of(commit.offset());
  }

  private Map<TopicPartition, OffsetAndMetadata> committed(
      final String group, final List<TopicPartition> partitions) {
    final Map<TopicPartition, OffsetAndMetadata> all =
        answer(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
    return all.entrySet().stream()
        .filter(entry -> entry.getValue() != null && partitions.contains(entry.getKey()))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  private Set<String> internalTopicsOf(final String applicationId) {
    return answer(admin.listTopics().names()).stream()
        .filter(topic -> topic.startsWith(applicationId + "-"))
        .collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  private List<TopicPartition> partitions(final String topic) {
    return requests
        .partitionsOf(topic)
        .orElseThrow(
            () ->
                new RescaleRefusedException(
                    "the input topic "
                        + topic
                        + " does not exist (is input.topic the processor's?)"));
  }

  private Map<TopicPartition, ListOffsetsResultInfo> offsets(
      final List<TopicPartition> partitions, final OffsetSpec spec) {
    return requests.readCommittedOffsets(partitions, spec);
  }

  private <T> T answer(final KafkaFuture<T> future) {
    return requests.answer(future);
  }
}
