package io.bucketer.reprocess;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.kafkaaccess.AdminRequests;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownMemberIdException;

/**
 * One reprocessing: checks that it may go ahead, asks the cluster where each partition of the input
 * topic stands, says so, and moves the processor's committed offsets back (not in a dry run).
 * Kafka's admin client alone, in the requests {@code kafka-consumer-groups.sh --reset-offsets
 * --to-datetime} sends, with the checks that tool cannot know: the lateness horizon, and the
 * retention of the range.
 */
public final class Reprocess {

  /** How long it waits for each answer of the cluster before it gives up. */
  public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  private static final String SEE = " — see docs/reprocessing.md";

  /** The processor's settings it needs. */
  public record Settings(
      Map<String, Object> kafkaProperties,
      String applicationId,
      String inputTopic,
      Duration latenessHorizon) {}

  private final Admin admin;
  private final AdminRequests requests;
  private final Settings settings;
  private final Consumer<String> lines;

  Reprocess(final Admin admin, final Settings settings, final Consumer<String> lines) {
    this.admin = admin;
    this.requests = new AdminRequests(admin, ANSWER_TIMEOUT);
    this.settings = settings;
    this.lines = lines;
  }

  /**
   * Moves the committed offsets of {@code application.id}'s group on the input topic back to {@code
   * from} (only says where they would go, in a dry run), saying per partition where it was and
   * where it goes.
   *
   * @return what it moved, or would move
   * @throws ReprocessRefusedException when it must not go ahead; nothing was moved
   * @throws KafkaException when the cluster fails or refuses a request
   */
  public static ReprocessPlan run(
      final Settings settings,
      final Instant from,
      final boolean dryRun,
      final Clock clock,
      final Consumer<String> lines) {
    final Instant horizon =
        clock.instant().minus(settings.latenessHorizon()).truncatedTo(ChronoUnit.SECONDS);
    if (from.isBefore(horizon)) {
      throw new ReprocessRefusedException(
          String.format(
              "--from %s is further back than lateness.horizon (%s): the processor no longer"
                  + " holds the windows of readings before about %s, and would dead-letter those"
                  + " as too-late instead of replacing what it wrote%s",
              from, TimeSpans.format(settings.latenessHorizon().toMillis()), horizon, SEE));
    }
    try (Admin admin = Admin.create(adminProperties(settings))) {
      return new Reprocess(admin, settings, lines).run(from, dryRun);
    }
  }

  static Map<String, Object> adminProperties(final Settings settings) {
    return AdminRequests.properties(
        settings.kafkaProperties(), settings.applicationId() + "-reprocess", ANSWER_TIMEOUT);
  }

  ReprocessPlan run(final Instant from, final boolean dryRun) {
    final String group = settings.applicationId();
    final String topic = settings.inputTopic();
    refuseUnlessStopped(group);
    final List<TopicPartition> partitions = partitions(topic);
    final ReprocessPlan plan = ReprocessPlan.of(from, topic, states(group, partitions, from));
    if (plan.nothingCommitted()) {
      throw new ReprocessRefusedException(
          "group "
              + group
              + " has committed no offset on "
              + topic
              + ": the processor never ran with this application.id, and has nothing to read"
              + " again");
    }
    lines.accept(
        String.format(
            "reprocess: group %s on %s (%d partitions), from %s%s",
            group, topic, partitions.size(), from, dryRun ? " (dry run)" : ""));
    plan.moves().forEach(move -> lines.accept(describe(move, dryRun)));
    if (dryRun) {
      lines.accept(
          String.format(
              "dry run: %d partitions would move back, %,d records would be read again;"
                  + " nothing was moved",
              plan.moving().size(), plan.recordsAgain()));
      return plan;
    }
    final Map<TopicPartition, OffsetAndMetadata> offsets =
        plan.moving().stream()
            .collect(
                Collectors.toMap(
                    move -> new TopicPartition(topic, move.partition()),
                    move -> new OffsetAndMetadata(move.to())));
    if (!offsets.isEmpty()) {
      try {
        answer(admin.alterConsumerGroupOffsets(group, offsets).all());
      } catch (UnknownMemberIdException e) {
        // The group is no longer empty: an instance started while this ran.
        throw stillRunning(group, "an instance joined it meanwhile");
      }
    }
    lines.accept(
        String.format(
            "done: %d partitions moved back, %,d records will be read again when run starts;"
                + " start the fixed version",
            offsets.size(), plan.recordsAgain()));
    return plan;
  }

  private static String describe(final ReprocessPlan.Move move, final boolean dryRun) {
    final String prefix = "partition " + move.partition() + ": ";
    if (move.committed().isEmpty()) {
      return prefix + "nothing committed, left as it is";
    }
    final long committed = move.committed().getAsLong();
    if (!move.moves()) {
      return String.format(
          "%scommitted %,d, stays: nothing read from then on yet", prefix, committed);
    }
    return String.format(
        "%scommitted %,d, %s %,d: %,d records to read again",
        prefix, committed, dryRun ? "would move to" : "moves to", move.to(), move.recordsAgain());
  }

  /** Offsets may be moved only while no instance is a member: a member would commit over them. */
  private void refuseUnlessStopped(final String group) {
    final GroupListing listing =
        answer(admin.listGroups().all()).stream()
            .filter(g -> g.groupId().equals(group))
            .findFirst()
            .orElse(null);
    if (listing != null && listing.type().orElse(GroupType.CLASSIC) == GroupType.STREAMS) {
      throw new ReprocessRefusedException(
          "group "
              + group
              + " is a streams group (kafka.group.protocol=streams), which reprocess does not"
              + " move yet; reset it with kafka-streams-groups.sh --reset-offsets"
              + SEE);
    }
    final ConsumerGroupDescription description;
    try {
      description =
          answer(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
    } catch (GroupIdNotFoundException e) {
      return;
    }
    final List<MemberDescription> members = List.copyOf(description.members());
    if (!members.isEmpty()) {
      throw stillRunning(
          group,
          (members.size() == 1 ? "1 member is" : members.size() + " members are")
              + " in it (from "
              + members.stream()
                  .map(MemberDescription::host)
                  .distinct()
                  .sorted()
                  .collect(Collectors.joining(", "))
              + ")");
    }
  }

  private static ReprocessRefusedException stillRunning(final String group, final String why) {
    return new ReprocessRefusedException(
        "group "
            + group
            + " is in use: "
            + why
            + "; stop every instance first (one with instance.id stays a member for"
            + " kafka.session.timeout.ms after it stops)"
            + SEE);
  }

  private List<TopicPartition> partitions(final String topic) {
    return requests
        .partitionsOf(topic)
        .orElseThrow(
            () ->
                new ReprocessRefusedException(
                    "the input topic "
                        + topic
                        + " does not exist (is input.topic the processor's?)"));
  }

  private List<PartitionState> states(
      final String group, final List<TopicPartition> partitions, final Instant from) {
    final Map<TopicPartition, OffsetAndMetadata> committed =
        answer(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
    final Map<TopicPartition, ListOffsetsResultInfo> starts =
        offsets(partitions, OffsetSpec.earliest());
    final Map<TopicPartition, ListOffsetsResultInfo> ends =
        offsets(partitions, OffsetSpec.latest());
    final Map<TopicPartition, ListOffsetsResultInfo> atFrom =
        offsets(partitions, OffsetSpec.forTimestamp(from.toEpochMilli()));
    return partitions.stream()
        .map(
            partition -> {
              final OffsetAndMetadata commit = committed.get(partition);
              final ListOffsetsResultInfo found = atFrom.get(partition);
              final boolean any = found.offset() >= 0;
              return new PartitionState(
                  partition.partition(),
                  starts.get(partition).offset(),
                  ends.get(partition).offset(),
                  commit == null ? OptionalLong.empty() : OptionalLong.of(commit.offset()),
                  any ? OptionalLong.of(found.offset()) : OptionalLong.empty(),
                  any ? OptionalLong.of(found.timestamp()) : OptionalLong.empty());
            })
        .toList();
  }

  /** Read committed: the ends the processor, which reads committed, reaches. */
  private Map<TopicPartition, ListOffsetsResultInfo> offsets(
      final List<TopicPartition> partitions, final OffsetSpec spec) {
    return requests.readCommittedOffsets(partitions, spec);
  }

  private <T> T answer(final KafkaFuture<T> future) {
    return requests.answer(future);
  }
}
