package io.bucketer.kafkaaccess;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.kafkaaccess.NotAuthorised.TopicOperations;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;

class NotAuthorisedTest {

  private static final RequiredAcls.Names NAMES = new RequiredAcls.Names("app", "in", "out", "dlq");

  private final Map<String, TopicOperations> cluster = new HashMap<>();
  private final NotAuthorised notAuthorised =
      new NotAuthorised(
          "kafka-1:9093",
          NAMES,
          topics -> {
            final Map<String, TopicOperations> answer = NotAuthorised.unknown(topics);
            topics.stream()
                .filter(cluster::containsKey)
                .forEach(topic -> answer.put(topic, cluster.get(topic)));
            return answer;
          });

  @Test
  void shouldNameTheOperationTheClusterSaysIsMissingOnTheRefusedTopic() {
    cluster.put(
        "out", new TopicOperations.Allowed(Set.of(AclOperation.READ, AclOperation.DESCRIBE)));
    final Exception refusal =
        new KafkaException(
            "wrapped twice",
            new ExecutionException(new TopicAuthorizationException(Set.of("out"))));

    assertThat(notAuthorised.line(refusal))
        .contains(
            "kafka at kafka-1:9093: not authorised: WRITE on topic 'out' — see docs/security.md 'Kafka'");
  }

  @Test
  void shouldNameEveryOperationTheReadmeGrantsWhenTheTopicCannotEvenBeDescribed() {
    assertThat(notAuthorised.line(new TopicAuthorizationException(Set.of("out"))))
        .hasValueSatisfying(line -> assertThat(line).contains("READ, WRITE on topic 'out'"));
  }

  @Test
  void shouldNameCreateForAnInternalTopicThatStreamsCouldNotCreate() {
    cluster.put("app-x-repartition", new TopicOperations.Missing());
    // Kafka's CreateTopics refusal names no topic; Kafka Streams' exception around it does.
    final Exception refusal =
        new KafkaException(
            "Could not create topic app-x-repartition.",
            new TopicAuthorizationException("Authorization failed."));

    assertThat(notAuthorised.line(refusal))
        .hasValueSatisfying(
            line -> assertThat(line).contains(": CREATE on topic 'app-x-repartition' — see"));
  }

  @Test
  void shouldNameTheGroupAndTheTransactionalIdPrefix() {
    assertThat(notAuthorised.line(new GroupAuthorizationException("no", "app-sink")))
        .hasValueSatisfying(line -> assertThat(line).contains(": READ on group 'app-sink' — "));
    assertThat(notAuthorised.line(new TransactionalIdAuthorizationException("no")))
        .hasValueSatisfying(
            line -> assertThat(line).contains(": WRITE on transactional-id prefixed 'app-' — "));
  }

  @Test
  void shouldSayTheTopicsToCreateMayExistButNotBeDescribable() {
    assertThat(notAuthorised.lineForCreating(Set.of("dlq")))
        .contains(
            ": WRITE on topic 'dlq' (and CREATE, unless an administrator creates the topic) — ");
  }

  @Test
  void shouldReportAMissingDeleteOnlyWhenTheClusterSaysSo() {
    cluster.put(
        "app-r-repartition",
        new TopicOperations.Allowed(
            Set.of(AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE)));
    assertThat(notAuthorised.unlessAllowed("app-r-repartition", AclOperation.DELETE))
        .hasValueSatisfying(line -> assertThat(line).contains(": DELETE on topic 'app-r-"));
    assertThat(notAuthorised.unlessAllowed("app-r-repartition", AclOperation.READ)).isEmpty();
    // unknown: the topic is not described, so nothing is claimed
    assertThat(notAuthorised.unlessAllowed("app-other", AclOperation.DELETE)).isEmpty();
  }

  @Test
  void shouldLeaveEveryOtherFailureAlone() {
    assertThat(notAuthorised.line(new TimeoutException("slow"))).isEmpty();
    assertThat(notAuthorised.line(new IllegalStateException("bug"))).isEmpty();
  }
}
