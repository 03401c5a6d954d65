package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.cert.CertPathBuilderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secured embedded broker is secured for real: TLS with the test's CA, SCRAM passwords checked,
 * and nothing allowed that no ACL allows, while the admin may do anything.
 */
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecuredKafkaBrokerIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir static Path dir;

  private static SecuredKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = SecuredKafka.start(dir, "reader");
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void shouldLetTheAdminWriteAndAUserReadOnlyWhatAnAclAllows() throws Exception {
    kafka.broker().createTopic("granted", 1, Map.of());
    kafka.broker().createTopic("withheld", 1, Map.of());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            kafka.clientProperties(SecuredKafka.ADMIN),
            new StringSerializer(),
            new StringSerializer())) {
      producer.send(new ProducerRecord<>("granted", "k", "v")).get();
      producer.send(new ProducerRecord<>("withheld", "k", "v")).get();
    }
    kafka.grant(
        List.of(
            new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, "granted", PatternType.LITERAL),
                new AccessControlEntry(
                    "User:reader", "*", AclOperation.READ, AclPermissionType.ALLOW))));

    assertThat(readAll("reader", "granted")).extracting(ConsumerRecord::value).containsExactly("v");
    assertThatThrownBy(() -> readAll("reader", "withheld"))
        .isInstanceOf(TopicAuthorizationException.class);
  }

  @Test
  void shouldRefuseAWrongPassword() {
    final Map<String, Object> properties = new HashMap<>(kafka.clientProperties("reader"));
    properties.put(
        SaslConfigs.SASL_JAAS_CONFIG,
        "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"reader\" password=\"wrong\";");
    assertThatThrownBy(() -> listTopics(properties))
        .hasRootCauseInstanceOf(SaslAuthenticationException.class);
  }

  /** The JDK's "PKIX path building failed": no chain from the broker's certificate to the CA. */
  @Test
  void shouldRefuseAClientThatTrustsAnotherCa() {
    final Path otherCa = TestCertificates.ca("another CA").writeBundle(dir.resolve("other-ca.pem"));
    final Map<String, Object> properties = new HashMap<>(kafka.clientProperties("reader"));
    properties.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, otherCa.toString());
    assertThatThrownBy(() -> listTopics(properties))
        .hasRootCauseInstanceOf(CertPathBuilderException.class)
        .hasCauseInstanceOf(SslAuthenticationException.class);
  }

  private static void listTopics(final Map<String, Object> properties) throws Exception {
    final Map<String, Object> admin = new HashMap<>(properties);
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    try (Admin client = Admin.create(admin)) {
      client.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Reads the topic's one partition from its start to its end, as {@code user}. */
  private static List<ConsumerRecord<String, String>> readAll(
      final String user, final String topic) {
    final Map<String, Object> properties = new HashMap<>(kafka.clientProperties(user));
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer())) {
      final TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      final long end = consumer.endOffsets(List.of(partition)).get(partition);
      final List<ConsumerRecord<String, String>> records = new ArrayList<>();
      while (consumer.position(partition) < end) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      return records;
    }
  }
}
