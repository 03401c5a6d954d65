package io.bucketer.testing;

import static org.awaitility.Awaitility.await;

import io.bucketer.config.KafkaSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.SaslSslListener;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * A secured embedded broker, as production clusters run: a SASL_SSL listener (SCRAM-SHA-512 over
 * TLS with a CA the test makes), KRaft's {@code StandardAuthorizer}, a super user {@value #ADMIN},
 * and further users that start with no ACL at all. The test grants and revokes their ACLs as the
 * admin. Passwords are random per broker.
 */
public final class SecuredKafka implements AutoCloseable {

  public static final String ADMIN = "admin";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final EmbeddedKafkaBroker broker;
  private final SaslSslListener listener;
  private final Path caBundle;
  private final Admin admin;

  private SecuredKafka(
      final EmbeddedKafkaBroker broker, final SaslSslListener listener, final Path caBundle) {
    this.broker = broker;
    this.listener = listener;
    this.caBundle = caBundle;
    this.admin = Admin.create(clientProperties(ADMIN));
  }

  /**
   * Makes a CA and the broker's certificate (localhost and 127.0.0.1) in {@code dir}, and starts
   * the broker with the admin and {@code users}.
   */
  public static SecuredKafka start(final Path dir, final String... users) {
    return start(dir, false, Map.of(), users);
  }

  /**
   * As {@link #start(Path, String...)}, the broker's settings overridden by {@code brokerOverrides}
   * (e.g. {@code connections.max.reauth.ms}, to make clients log in again on open connections).
   */
  public static SecuredKafka start(
      final Path dir, final Map<String, String> brokerOverrides, final String... users) {
    return start(dir, false, brokerOverrides, users);
  }

  /**
   * As {@link #start(Path, String...)}, with a listener that also demands a client certificate from
   * the CA (mutual TLS): {@link #clientProperties} and {@link #bucketerSettings} then show one.
   */
  public static SecuredKafka startRequiringClientCertificates(
      final Path dir, final String... users) {
    return start(dir, true, Map.of(), users);
  }

  private static SecuredKafka start(
      final Path dir,
      final boolean requireClientCertificate,
      final Map<String, String> brokerOverrides,
      final String... users) {
    final TestCertificates.Authority ca = TestCertificates.ca("bucketer test CA");
    final TestCertificates.Issued server =
        TestCertificates.issue(
            ca, "kafka", TestCertificates.Purpose.SERVER_AND_CLIENT, "localhost", "127.0.0.1");
    final Path caBundle = ca.writeBundle(dir.resolve("kafka-ca.pem"));
    final Map<String, String> passwords = new LinkedHashMap<>();
    passwords.put(ADMIN, newPassword());
    for (final String user : users) {
      passwords.put(user, newPassword());
    }
    final SaslSslListener listener =
        new SaslSslListener(
            server.writeKeyStore(dir.resolve("kafka-keystore.pem")),
            caBundle,
            ADMIN,
            passwords,
            requireClientCertificate);
    return new SecuredKafka(
        EmbeddedKafkaBroker.start(brokerOverrides, listener), listener, caBundle);
  }

  private static String newPassword() {
    final byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  public EmbeddedKafkaBroker broker() {
    return broker;
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  /** The CA bundle that signed the broker's certificate, a PEM trust store for its clients. */
  public Path caBundle() {
    return caBundle;
  }

  /** Everything a Kafka client of {@code user} needs, bootstrap servers included. */
  public Map<String, Object> clientProperties(final String user) {
    final Map<String, Object> properties = new LinkedHashMap<>(listener.clientProperties(user));
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return properties;
  }

  /**
   * Bucketer's settings for connecting as {@code user}: its {@code kafka.*} pass-through settings
   * (bootstrap.servers is a setting of its own).
   */
  public Map<String, String> bucketerSettings(final String user) {
    final Map<String, String> settings = new LinkedHashMap<>();
    listener
        .clientProperties(user)
        .forEach((key, value) -> settings.put(KafkaSettings.CLIENT_PREFIX + key, value.toString()));
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, bootstrapServers());
    return settings;
  }

  /** An admin client of the super user; the broker closes it. */
  public Admin admin() {
    return admin;
  }

  /**
   * Adds the ACLs and waits until the broker's authorizer applies them: the controller commits them
   * first, and a client that comes at once may still be refused, or may not see a topic.
   */
  public void grant(final Collection<AclBinding> acls) {
    try {
      admin.createAcls(List.copyOf(acls)).all().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot add ACLs " + acls, e);
    }
    // DescribeAcls is answered from the broker's own authorizer
    await("the broker applies " + acls)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> acls().containsAll(acls));
  }

  /** Removes the ACLs. */
  public void revoke(final Collection<AclBinding> acls) {
    try {
      admin
          .deleteAcls(acls.stream().map(AclBinding::toFilter).toList())
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot remove ACLs " + acls, e);
    }
  }

  /** Every ACL the broker holds. */
  public Collection<AclBinding> acls() {
    try {
      return admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot describe ACLs", e);
    }
  }

  @Override
  public void close() {
    admin.close();
    broker.close();
  }
}
