package io.bucketer.testing;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * What the broker says about the processors' consumer group. Kafka Streams 4.3 joins with the
 * classic group protocol by default ({@code group.protocol=classic}), so the group is a consumer
 * group that {@link Admin#describeConsumerGroups} describes, members and assignments included.
 */
public final class ConsumerGroupWatch {

  private final Admin admin;
  private final String groupId;
  private final String inputTopic;

  ConsumerGroupWatch(final Admin admin, final String groupId, final String inputTopic) {
    this.admin = admin;
    this.groupId = groupId;
    this.inputTopic = inputTopic;
  }

  /**
   * True when the group is stable, its members are exactly the stream threads of the processors
   * with these client ids (one thread each, the default), each is assigned something, and together
   * they are assigned every partition the input topic has now. Naming the processors matters after
   * a kill: until its session times out, a dead member still counts as one.
   */
  public boolean isStableAndConsumingAll(final Collection<String> clientIds)
      throws InterruptedException, ExecutionException, TimeoutException {
    final ConsumerGroupDescription group;
    try {
      group = describe();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return false; // no member has joined yet
      }
      throw e;
    }
    if (group.groupState() != GroupState.STABLE || group.members().size() != clientIds.size()) {
      return false;
    }
    final Set<TopicPartition> assigned = new HashSet<>();
    for (final MemberDescription member : group.members()) {
      final Set<TopicPartition> partitions = member.assignment().topicPartitions();
      if (partitions.isEmpty() || clientIds.stream().noneMatch(id -> isThreadOf(member, id))) {
        return false;
      }
      assigned.addAll(partitions);
    }
    return assigned.containsAll(inputPartitions());
  }

  // Kafka Streams names its consumers <client.id>-StreamThread-<n>-consumer.
  private static boolean isThreadOf(final MemberDescription member, final String clientId) {
    return member.clientId().startsWith(clientId + "-StreamThread-");
  }

  /**
   * True when the group has committed, for every partition of the input topic, the offset at its
   * end: every record sent to it so far has been processed. (The gateways do not use transactions,
   * so the end offset is the offset after the last record.)
   */
  public boolean hasCommittedTheEndOfTheInput()
      throws InterruptedException, ExecutionException, TimeoutException {
    final Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(groupId)
            .partitionsToOffsetAndMetadata()
            .get(10, TimeUnit.SECONDS);
    final Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
    inputPartitions().forEach(partition -> ends.put(partition, OffsetSpec.latest()));
    return admin.listOffsets(ends).all().get(10, TimeUnit.SECONDS).entrySet().stream()
        .allMatch(
            end -> {
              final OffsetAndMetadata offset = committed.get(end.getKey());
              final long position = offset == null ? 0 : offset.offset();
              return position >= end.getValue().offset();
            });
  }

  /**
   * The input records the group has committed, all partitions together: with exactly-once, it grows
   * only when a member commits a transaction over input it processed.
   */
  public long committedInputRecords()
      throws InterruptedException, ExecutionException, TimeoutException {
    try {
      return admin
          .listConsumerGroupOffsets(groupId)
          .partitionsToOffsetAndMetadata()
          .get(10, TimeUnit.SECONDS)
          .entrySet()
          .stream()
          .filter(offset -> offset.getKey().topic().equals(inputTopic) && offset.getValue() != null)
          .mapToLong(offset -> offset.getValue().offset())
          .sum();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return 0; // nothing committed yet
      }
      throw e;
    }
  }

  /** The partitions of {@code topic} assigned to each member, one set per member. */
  public List<Set<TopicPartition>> partitionsByMember(final String topic)
      throws InterruptedException, ExecutionException, TimeoutException {
    return describe().members().stream()
        .map(
            member ->
                Set.copyOf(
                    member.assignment().topicPartitions().stream()
                        .filter(p -> p.topic().equals(topic))
                        .toList()))
        .toList();
  }

  private ConsumerGroupDescription describe()
      throws InterruptedException, ExecutionException, TimeoutException {
    return admin
        .describeConsumerGroups(List.of(groupId))
        .describedGroups()
        .get(groupId)
        .get(10, TimeUnit.SECONDS);
  }

  private Collection<TopicPartition> inputPartitions()
      throws InterruptedException, ExecutionException, TimeoutException {
    return admin
        .describeTopics(List.of(inputTopic))
        .allTopicNames()
        .get(10, TimeUnit.SECONDS)
        .get(inputTopic)
        .partitions()
        .stream()
        .map(p -> new TopicPartition(inputTopic, p.partition()))
        .toList();
  }
}
