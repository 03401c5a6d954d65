package io.bucketer.bench;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.embedded.ProcessorProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The soak's faults, one after another on a schedule spread evenly over the run: the processor
 * killed and started again, MongoDB frozen, the processor frozen, a tenant flooding new series,
 * input partitions added, one more instance joining and then leaving. Each runs to its end, then
 * waits until the processor is ready again (or the new partitions are consumed, or the group
 * processes every partition again), and says what happened in one line.
 */
public final class SoakFaults {

  /** How long a fault may take to be over before the soak says it did not recover. */
  private static final Duration RECOVERY_DEADLINE = Duration.ofMinutes(10);

  /**
   * How long the join is watched once the newcomer holds partitions: the stateful tasks follow the
   * stateless ones once their warm-up replicas have caught up, within seconds at a soak's sizes.
   */
  private static final Duration SETTLE_AFTER_JOIN = Duration.ofSeconds(30);

  /** The faults, in the order they come. */
  enum Kind {
    PROCESSOR_KILLED("processor killed (SIGKILL) and started again"),
    MONGODB_FROZEN("MongoDB frozen (SIGSTOP)"),
    PROCESSOR_FROZEN("processor frozen (SIGSTOP)"),
    TENANT_FLOOD("a tenant floods new series"),
    PARTITIONS_ADDED("input partitions added"),
    /** Its description names the joiner by its place among the instances: "a third ...". */
    INSTANCE_JOINED("a %s instance joins"),
    INSTANCE_LEFT("the %s instance stops (SIGTERM)");

    private final String description;

    Kind(final String description) {
      this.description = description;
    }
  }

  /**
   * What the faults act on.
   *
   * @param joiner one more instance of the same application, started by {@link
   *     Kind#INSTANCE_JOINED} and stopped by {@link Kind#INSTANCE_LEFT}
   * @param joinerPlace the joiner's place among the instances, in words: "second", "third"
   * @param joinerMembers the prefix of the joiner's members' {@code group.instance.id}
   */
  record Targets(
      SoakProcessor processor,
      SoakProcessor joiner,
      String joinerPlace,
      String joinerMembers,
      MongoServerProcess mongo,
      TenantFlood flood,
      Admin admin,
      String inputTopic,
      String applicationId) {}

  /** How long and how hard the faults are. */
  public record Strength(
      Duration stall, Duration floodLength, int floodPerSecond, int partitionsAfterGrowth) {}

  /** One fault as it happened. */
  record Outcome(Kind kind, Duration at, Duration took, String line) {}

  private final Targets targets;
  private final Strength strength;
  private final List<Outcome> outcomes = new ArrayList<>();

  SoakFaults(final Targets targets, final Strength strength) {
    this.targets = targets;
    this.strength = strength;
  }

  /** When each fault comes: the run cut into {@code kinds + 1} equal stretches. */
  static List<Duration> schedule(final Duration run) {
    final int slots = Kind.values().length + 1;
    final List<Duration> at = new ArrayList<>();
    for (int slot = 1; slot < slots; slot++) {
      at.add(run.multipliedBy(slot).dividedBy(slots));
    }
    return at;
  }

  /** Runs {@code kind} now, {@code at} into the run; blocks until it is over. */
  Outcome run(final Kind kind, final Duration at) throws Exception {
    final long started = System.nanoTime();
    final String line =
        switch (kind) {
          case PROCESSOR_KILLED -> killAndRestart();
          case MONGODB_FROZEN -> freezeMongo();
          case PROCESSOR_FROZEN -> freezeProcessor();
          case TENANT_FLOOD -> flood();
          case PARTITIONS_ADDED -> addPartitions();
          case INSTANCE_JOINED -> join();
          case INSTANCE_LEFT -> leave();
        };
    final Outcome outcome =
        new Outcome(kind, at, Duration.ofNanos(System.nanoTime() - started), line);
    synchronized (outcomes) {
      outcomes.add(outcome);
    }
    return outcome;
  }

  List<Outcome> outcomes() {
    synchronized (outcomes) {
      return List.copyOf(outcomes);
    }
  }

  private String killAndRestart() throws Exception {
    targets.processor().kill();
    final long restarted = System.nanoTime();
    targets.processor().start();
    return Kind.PROCESSOR_KILLED.description + ": " + readyAgain(restarted, "the restart");
  }

  private String freezeMongo() throws Exception {
    targets.mongo().freeze();
    try {
      hold(strength.stall());
    } finally {
      targets.mongo().thaw();
    }
    return Kind.MONGODB_FROZEN.description
        + " for "
        + TimeSpans.format(strength.stall().toMillis())
        + ": "
        + readyAgain(System.nanoTime(), "the thaw");
  }

  private String freezeProcessor() throws Exception {
    targets.processor().freeze();
    try {
      hold(strength.stall());
    } finally {
      targets.processor().thaw();
    }
    return Kind.PROCESSOR_FROZEN.description
        + " for "
        + TimeSpans.format(strength.stall().toMillis())
        + ": "
        + readyAgain(System.nanoTime(), "the thaw");
  }

  private String flood() {
    final long sent = targets.flood().run(strength.floodLength(), strength.floodPerSecond());
    return String.format(
        "%s: %,d readings of new series in %s",
        Kind.TENANT_FLOOD.description, sent, TimeSpans.format(strength.floodLength().toMillis()));
  }

  private String addPartitions() throws Exception {
    final int before =
        targets
            .admin()
            .describeTopics(List.of(targets.inputTopic()))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(targets.inputTopic())
            .partitions()
            .size();
    targets
        .admin()
        .createPartitions(
            Map.of(
                targets.inputTopic(), NewPartitions.increaseTo(strength.partitionsAfterGrowth())))
        .all()
        .get(30, TimeUnit.SECONDS);
    final long added = System.nanoTime();
    while (assignedInputPartitions() < strength.partitionsAfterGrowth()) {
      if (System.nanoTime() - added > RECOVERY_DEADLINE.toNanos()) {
        return String.format(
            "%s, %d to %d: NOT all consumed within %s",
            Kind.PARTITIONS_ADDED.description,
            before,
            strength.partitionsAfterGrowth(),
            TimeSpans.format(RECOVERY_DEADLINE.toMillis()));
      }
      // Polling the group's assignment, as an operator's dashboard would, once a second.
      TimeUnit.SECONDS.sleep(1);
    }
    return String.format(
        "%s, %d to %d: all consumed %.0f s later",
        Kind.PARTITIONS_ADDED.description,
        before,
        strength.partitionsAfterGrowth(),
        (System.nanoTime() - added) / 1e9);
  }

  /**
   * Starts the joiner, and watches the group's partitions until the newcomer has held some for
   * {@link #SETTLE_AFTER_JOIN}: Kafka Streams moves stateless tasks at the first rebalance and
   * stateful ones once their warm-up replicas have caught up. Says when it held partitions, which,
   * and the longest any partition waited without a commit meanwhile.
   */
  private String join() throws Exception {
    final PartitionPauses pauses = new PartitionPauses();
    final long from = System.nanoTime();
    final CompletableFuture<Void> started = CompletableFuture.runAsync(targets.joiner()::start);
    long heldAt = -1;
    Map<String, Integer> held = Map.of();
    while (heldAt < 0 || System.nanoTime() - heldAt < SETTLE_AFTER_JOIN.toNanos()) {
      if (System.nanoTime() - from > RECOVERY_DEADLINE.toNanos()) {
        break;
      }
      samplePauses(pauses);
      held = joinerPartitions();
      if (heldAt < 0 && !held.isEmpty()) {
        heldAt = System.nanoTime();
      }
      // Sampling the group's offsets, as a lag dashboard would, four times a second.
      TimeUnit.MILLISECONDS.sleep(250);
    }
    started.get(RECOVERY_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    final String holding =
        heldAt < 0
            ? "it held NO partition within " + TimeSpans.format(RECOVERY_DEADLINE.toMillis())
            : String.format(
                "it held partitions %.1f s after its start, and %s later these: %s",
                (heldAt - from) / 1e9, TimeSpans.format(SETTLE_AFTER_JOIN.toMillis()), held);
    return joinerDescription(Kind.INSTANCE_JOINED) + ": " + holding + "; " + longestPause(pauses);
  }

  /**
   * Stops the joiner as an orchestrator stops a pod, and watches the group's partitions until every
   * one is committed again or has nothing waiting, once the instance has gone from the group: a
   * static member (an instance with an {@code instance.id}, as deployed) does not leave it when it
   * stops, so its partitions wait for its session to expire.
   */
  private String leave() throws Exception {
    final PartitionPauses pauses = new PartitionPauses();
    samplePauses(pauses);
    final long from = System.nanoTime();
    final int status = targets.joiner().stop();
    final String stopped =
        status == ProcessorProcess.ENDED_BY_SIGTERM ? "" : " (it exited with " + status + ")";
    while (!pauses.allMoving() || joinerIsMember()) {
      if (System.nanoTime() - from > RECOVERY_DEADLINE.toNanos()) {
        return joinerDescription(Kind.INSTANCE_LEFT)
            + stopped
            + ": NOT every partition committed again within "
            + TimeSpans.format(RECOVERY_DEADLINE.toMillis())
            + "; "
            + longestPause(pauses);
      }
      // Sampling the group's offsets, as a lag dashboard would, four times a second.
      TimeUnit.MILLISECONDS.sleep(250);
      samplePauses(pauses);
    }
    return String.format(
        "%s%s: every partition committed again %.1f s after the stop; %s",
        joinerDescription(Kind.INSTANCE_LEFT),
        stopped,
        (System.nanoTime() - from) / 1e9,
        longestPause(pauses));
  }

  private String joinerDescription(final Kind kind) {
    return String.format(kind.description, targets.joinerPlace());
  }

  /** An instance's place among them, in words, as the faults' lines say it: 2 is "second". */
  static String place(final int ordinal) {
    return switch (ordinal) {
      case 2 -> "second";
      case 3 -> "third";
      case 4 -> "fourth";
      case 5 -> "fifth";
      default -> ordinal + "th";
    };
  }

  private static String longestPause(final PartitionPauses pauses) {
    return pauses.longestOn() == null
        ? "no partition waited without a commit across two samples"
        : String.format(
            "the longest a partition waited without a commit: %.1f s (%s)",
            pauses.longest().toMillis() / 1000.0, pauses.longestOn());
  }

  /** One sample of the group's committed offsets and its partitions' committed ends. */
  private void samplePauses(final PartitionPauses pauses) throws Exception {
    final Map<TopicPartition, Long> committed = new HashMap<>();
    targets
        .admin()
        .listConsumerGroupOffsets(targets.applicationId())
        .partitionsToOffsetAndMetadata()
        .get(30, TimeUnit.SECONDS)
        .forEach(
            (partition, offset) -> {
              if (offset != null) {
                committed.put(partition, offset.offset());
              }
            });
    final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
    final Map<TopicPartition, Long> ends = new HashMap<>();
    targets
        .admin()
        .listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((partition, info) -> ends.put(partition, info.offset()));
    pauses.sample(System.nanoTime(), committed, ends);
  }

  /** The partitions the joiner's members hold now, counted by topic. */
  private Map<String, Integer> joinerPartitions() throws Exception {
    final Map<String, Integer> held = new TreeMap<>();
    for (final MemberDescription member : group().members()) {
      if (isJoiner(member)) {
        member
            .assignment()
            .topicPartitions()
            .forEach(partition -> held.merge(partition.topic(), 1, Integer::sum));
      }
    }
    return held;
  }

  private boolean joinerIsMember() throws Exception {
    return group().members().stream().anyMatch(this::isJoiner);
  }

  private boolean isJoiner(final MemberDescription member) {
    return member
        .groupInstanceId()
        .filter(id -> id.startsWith(targets.joinerMembers()))
        .isPresent();
  }

  private ConsumerGroupDescription group() throws Exception {
    return targets
        .admin()
        .describeConsumerGroups(List.of(targets.applicationId()))
        .all()
        .get(30, TimeUnit.SECONDS)
        .get(targets.applicationId());
  }

  /** Input partitions the processors' group holds now, over its members. */
  private int assignedInputPartitions() throws Exception {
    int assigned = 0;
    for (final MemberDescription member : group().members()) {
      for (final TopicPartition partition : member.assignment().topicPartitions()) {
        if (partition.topic().equals(targets.inputTopic())) {
          assigned++;
        }
      }
    }
    return assigned;
  }

  /** Waits until {@code /ready} answers 200, polling every 250 ms; says how long it took. */
  /**
   * Waits until the processor is ready and has committed input since {@code fromNanos}: a processor
   * just thawed answers {@code /ready} before its stall watch has noticed the stall, and its first
   * commit tells that the stream threads work again (rejoined, restored, not fenced).
   */
  private String readyAgain(final long fromNanos, final String from) throws Exception {
    final long committedBefore = committedInput();
    while (!targets.processor().isReady() || committedInput() <= committedBefore) {
      if (System.nanoTime() - fromNanos > RECOVERY_DEADLINE.toNanos()) {
        return "NOT ready within " + TimeSpans.format(RECOVERY_DEADLINE.toMillis()) + " of " + from;
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
    return String.format(
        "ready and committing again %.1f s after %s", (System.nanoTime() - fromNanos) / 1e9, from);
  }

  /** The processors' committed offsets on the input topic, summed over its partitions. */
  private long committedInput() throws Exception {
    long committed = 0;
    for (final Map.Entry<TopicPartition, OffsetAndMetadata> offset :
        targets
            .admin()
            .listConsumerGroupOffsets(targets.applicationId())
            .partitionsToOffsetAndMetadata()
            .get(30, TimeUnit.SECONDS)
            .entrySet()) {
      if (offset.getKey().topic().equals(targets.inputTopic()) && offset.getValue() != null) {
        committed += offset.getValue().offset();
      }
    }
    return committed;
  }

  /** The fault's length: holding it is the fault, not a wait for something. */
  private static void hold(final Duration length) throws InterruptedException {
    TimeUnit.MILLISECONDS.sleep(length.toMillis());
  }
}
