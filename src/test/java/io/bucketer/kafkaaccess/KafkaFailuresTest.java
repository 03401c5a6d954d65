package io.bucketer.kafkaaccess;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

/**
 * The one line of each Kafka client failure a user can cause by configuration, from the exceptions
 * Kafka's clients throw, wrapped as the admin client and Kafka Streams wrap them. End to end:
 * KafkaFailuresIT and SecuredCheckIT.
 */
class KafkaFailuresTest {

  private static final String JAAS =
      "org.apache.kafka.common.security.scram.ScramLoginModule required"
          + " username=\"bucketer\" password=\"s3cr3t-Pa55\";";

  private static final Map<String, Object> SECURED =
      Map.of(
          "bootstrap.servers", "kafka-1:9093,kafka-2:9093",
          "security.protocol", "SASL_SSL",
          "sasl.mechanism", "SCRAM-SHA-512",
          "sasl.jaas.config", JAAS,
          "ssl.truststore.type", "PEM",
          "ssl.truststore.location", "/etc/bucketer/kafka-ca.pem");

  private static final NotAuthorised NOT_AUTHORISED =
      new NotAuthorised(
          "kafka-1:9093,kafka-2:9093",
          new RequiredAcls.Names("app", "in", "out", "dlq"),
          NotAuthorised::unknown);

  private final KafkaFailures failures =
      new KafkaFailures(SECURED, Duration.ofSeconds(10), NOT_AUTHORISED);

  @Test
  void shouldNameTheTrustStoreWhenTheBrokersCertificateDoesNotChainToIt() {
    final SSLHandshakeException handshake = new SSLHandshakeException("PKIX path building failed");
    handshake.initCause(
        new CertificateException(
            "PKIX path building failed", new CertPathBuilderException("no path")));
    final Exception error =
        new ExecutionException(new SslAuthenticationException("SSL handshake failed", handshake));

    assertThat(failures.classify(error))
        .contains(
            new KafkaFailures.Failure(
                KafkaFailures.Cause.TLS_TRUST,
                "kafka at kafka-1:9093,kafka-2:9093: TLS trust: the server's certificate does not"
                    + " chain to the trust store /etc/bucketer/kafka-ca.pem"
                    + " (kafka.ssl.truststore.location)"));
  }

  @Test
  void shouldSayTheJvmsTrustStoreWhenNoneIsSet() {
    final KafkaFailures plain =
        new KafkaFailures(
            Map.of("bootstrap.servers", "kafka-1:9093"), Duration.ofSeconds(10), NOT_AUTHORISED);
    final SSLHandshakeException handshake = new SSLHandshakeException("PKIX path building failed");
    handshake.initCause(new CertificateException("PKIX path building failed"));

    assertThat(plain.classify(new SslAuthenticationException("SSL handshake failed", handshake)))
        .map(KafkaFailures.Failure::line)
        .hasValueSatisfying(
            line ->
                assertThat(line)
                    .endsWith(
                        "does not chain to the JVM's trust store (no kafka.ssl.truststore.location)"));
  }

  @Test
  void shouldSayTheBrokerRefusedAMissingClientCertificate() {
    final Exception error =
        new SslAuthenticationException(
            "SSL handshake failed",
            new SSLHandshakeException("Received fatal alert: certificate_required"));

    assertThat(failures.classify(error))
        .contains(
            new KafkaFailures.Failure(
                KafkaFailures.Cause.CERTIFICATE_REFUSED,
                "kafka at kafka-1:9093,kafka-2:9093: certificate refused: the server demands a"
                    + " client certificate and refused to go without one (none is configured)"));
    final KafkaFailures withCertificate =
        new KafkaFailures(
            Map.of("bootstrap.servers", "kafka-1:9093", "ssl.keystore.location", "/etc/client.p12"),
            Duration.ofSeconds(10),
            NOT_AUTHORISED);
    assertThat(withCertificate.classify(error))
        .map(KafkaFailures.Failure::line)
        .hasValueSatisfying(
            line -> assertThat(line).endsWith("refused the one in /etc/client.p12"));
  }

  @Test
  void shouldNameTheMechanismAndUserButNeverThePasswordWhenTheLoginFails() {
    final Exception error =
        new KafkaException(
            "wrapped",
            new SaslAuthenticationException(
                "Authentication failed during authentication due to invalid credentials with SASL"
                    + " mechanism SCRAM-SHA-512"));

    final Optional<KafkaFailures.Failure> failure = failures.classify(error);

    assertThat(failure)
        .contains(
            new KafkaFailures.Failure(
                KafkaFailures.Cause.AUTHENTICATION_FAILED,
                "kafka at kafka-1:9093,kafka-2:9093: authentication failed: SCRAM-SHA-512 as user"
                    + " 'bucketer'"));
    assertThat(failure.orElseThrow().line()).doesNotContain("s3cr3t");
  }

  @Test
  void shouldReadTheUserFromAPasswordTypedJaasConfiguration() {
    final KafkaFailures typed =
        new KafkaFailures(
            Map.of(
                "bootstrap.servers",
                "kafka-1:9093",
                "sasl.mechanism",
                "PLAIN",
                "sasl.jaas.config",
                new Password(
                    "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"gateway\" password=\"x\";")),
            Duration.ofSeconds(10),
            NOT_AUTHORISED);

    assertThat(typed.classify(new SaslAuthenticationException("invalid credentials")))
        .map(KafkaFailures.Failure::line)
        .contains("kafka at kafka-1:9093: authentication failed: PLAIN as user 'gateway'");
  }

  @Test
  void shouldGiveARefusalByTheAuthorizerNotAuthorisedsLine() {
    assertThat(
            failures.classify(
                new ExecutionException(new TopicAuthorizationException(Set.of("in")))))
        .hasValueSatisfying(
            failure -> {
              assertThat(failure.cause()).isEqualTo(KafkaFailures.Cause.NOT_AUTHORISED);
              assertThat(failure.line())
                  .startsWith("kafka at kafka-1:9093,kafka-2:9093: not authorised: READ")
                  .contains("on topic 'in'");
            });
  }

  @Test
  void shouldCallNoAnswerInTimeUnreachableAndOnlyThatRetryable() {
    final Optional<KafkaFailures.Failure> failure =
        failures.classify(
            new ExecutionException(
                new TimeoutException("Timed out waiting for a node assignment. Call: listTopics")));

    assertThat(failure)
        .contains(
            new KafkaFailures.Failure(
                KafkaFailures.Cause.UNREACHABLE,
                "kafka at kafka-1:9093,kafka-2:9093: unreachable: no answer within 10 s"));
    assertThat(KafkaFailures.Cause.values())
        .filteredOn(KafkaFailures.Cause::retryable)
        .containsExactly(KafkaFailures.Cause.UNREACHABLE);
  }

  @Test
  void shouldLeaveAFailureItDoesNotKnowToTheCaller() {
    assertThat(failures.classify(new UnknownTopicOrPartitionException("no such topic"))).isEmpty();
    // a TLS error outside a handshake is a lost connection, not a configuration to fix
    assertThat(failures.classify(new KafkaException(new SSLException("Connection reset"))))
        .isEmpty();
    assertThat(failures.classify(new IllegalStateException("a bug"))).isEmpty();
  }

  @Test
  void shouldDescribeAnyFailureInOneLineWithoutTheWrappersClassNames() {
    final Exception refused =
        new IllegalStateException(
            "cannot read the cluster's topics",
            new ExecutionException(new SaslAuthenticationException("invalid credentials")));
    final Exception unknown =
        new IllegalStateException(
            "cannot read the cluster's topics: " + new ExecutionException(null),
            new ExecutionException(new UnknownTopicOrPartitionException("no such topic")));

    assertThat(failures.describe(refused))
        .isEqualTo(
            "kafka at kafka-1:9093,kafka-2:9093: authentication failed: SCRAM-SHA-512 as user"
                + " 'bucketer'");
    assertThat(failures.describe(unknown))
        .isEqualTo("kafka at kafka-1:9093,kafka-2:9093: no such topic")
        .doesNotContain("Exception");
  }
}
