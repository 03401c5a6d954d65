package io.bucketer.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EmbeddedKafkaBrokerIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static EmbeddedKafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = EmbeddedKafkaBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void shouldGiveBackTheRecordsProducedToThreePartitions() throws Exception {
    broker.createTopic("readings", 3, Map.of("retention.ms", "3600000"));
    assertThat(describe(broker, "readings").partitions()).hasSize(3);

    try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(broker))) {
      for (int i = 0; i < 30; i++) {
        producer.send(new ProducerRecord<>("readings", i % 3, "sensor-" + i, "value-" + i)).get();
      }
    }

    final List<ConsumerRecord<String, String>> records =
        consume(broker, "readings", 3, "read_uncommitted", 30);
    assertThat(records).hasSize(30);
    assertThat(records)
        .extracting(ConsumerRecord::key, ConsumerRecord::value)
        .contains(tuple("sensor-0", "value-0"), tuple("sensor-29", "value-29"));
    assertThat(records.stream().map(ConsumerRecord::partition).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(0, 1, 2);
    assertThat(records)
        .allSatisfy(r -> assertThat(r.value()).isEqualTo(r.key().replace("sensor", "value")));
  }

  @Test
  void shouldShowCommittedTransactionsAndHideAbortedOnes() {
    broker.createTopic("tx", 1, Map.of());
    final Properties props = producerProps(broker);
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "embedded-it-tx");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
      producer.initTransactions();
      sendInTransaction(producer, "committed-1", "committed-2");
      producer.commitTransaction();
      sendInTransaction(producer, "aborted");
      producer.abortTransaction();
      sendInTransaction(producer, "committed-3");
      producer.commitTransaction();
    }

    final List<ConsumerRecord<String, String>> records =
        consume(broker, "tx", 1, "read_committed", 3);
    assertThat(records)
        .extracting(ConsumerRecord::value)
        .containsExactly("committed-1", "committed-2", "committed-3");
  }

  @Test
  void shouldRunASecondBrokerAlongsideAndAnotherAfterItCloses() throws Exception {
    final String firstClusterId;
    try (EmbeddedKafkaBroker second = EmbeddedKafkaBroker.start()) {
      assertThat(second.bootstrapServers()).isNotEqualTo(broker.bootstrapServers());
      second.createTopic("readings", 2, Map.of());
      assertThat(describe(second, "readings").partitions()).hasSize(2);
      firstClusterId = clusterId(second);
      assertThat(firstClusterId).isNotEqualTo(clusterId(broker));
    }
    try (EmbeddedKafkaBroker third = EmbeddedKafkaBroker.start()) {
      assertThat(clusterId(third)).isNotEqualTo(firstClusterId);
      third.createTopic("again", 1, Map.of());
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(third))) {
        producer.send(new ProducerRecord<>("again", "k", "v")).get();
      }
      assertThat(consume(third, "again", 1, "read_uncommitted", 1))
          .extracting(ConsumerRecord::value)
          .containsExactly("v");
    }
  }

  private static void sendInTransaction(
      final KafkaProducer<String, String> producer, final String... values) {
    producer.beginTransaction();
    for (final String value : values) {
      producer.send(new ProducerRecord<>("tx", "key", value));
    }
  }

  /** Reads every partition from the beginning until {@code expected} records have arrived. */
  private static List<ConsumerRecord<String, String>> consume(
      final EmbeddedKafkaBroker target,
      final String topic,
      final int partitions,
      final String isolation,
      final int expected) {
    final Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    final List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      final List<TopicPartition> assigned = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        assigned.add(new TopicPartition(topic, p));
      }
      consumer.assign(assigned);
      consumer.seekToBeginning(assigned);
      await()
          .atMost(TIMEOUT)
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
              });
    }
    return records;
  }

  private static Properties producerProps(final EmbeddedKafkaBroker target) {
    final Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return props;
  }

  private static TopicDescription describe(final EmbeddedKafkaBroker target, final String topic)
      throws Exception {
    try (Admin admin = admin(target)) {
      return admin
          .describeTopics(Set.of(topic))
          .allTopicNames()
          .get(30, TimeUnit.SECONDS)
          .get(topic);
    }
  }

  private static String clusterId(final EmbeddedKafkaBroker target) throws Exception {
    try (Admin admin = admin(target)) {
      return admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
    }
  }

  private static Admin admin(final EmbeddedKafkaBroker target) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers()));
  }
}
