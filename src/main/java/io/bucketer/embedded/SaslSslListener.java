package io.bucketer.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * A secured broker, as production clusters run: its one client listener is SASL_SSL with
 * SCRAM-SHA-512 over TLS, and KRaft's {@code StandardAuthorizer} allows nothing that no ACL allows.
 * The admin user is a super user; every other user starts with no ACL at all. The SCRAM users are
 * written at format time (KIP-900), so they exist before the broker answers its first request.
 *
 * <p>The controller listener stays PLAINTEXT on loopback: the node talks to itself there as {@code
 * User:ANONYMOUS}, which must therefore be a super user too. No client is given that listener.
 *
 * @param keyStore the broker's PEM key store: its PKCS#8 private key, then its certificate chain
 * @param trustStore PEM certificates of the CA that issued the broker's certificate
 * @param admin the super user's name, which the broker also uses to reach itself
 * @param passwords every SCRAM user's password by name, the admin's included
 * @param requireClientCertificate whether the listener demands a client certificate besides the
 *     login (mutual TLS), one from the trust store's CA; its clients then show the broker's own
 */
public record SaslSslListener(
    Path keyStore,
    Path trustStore,
    String admin,
    Map<String, String> passwords,
    boolean requireClientCertificate) {

  public static final String MECHANISM = "SCRAM-SHA-512";

  private static final String AUTHORIZER =
      "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

  public SaslSslListener {
    passwords = Map.copyOf(passwords);
    if (!passwords.containsKey(admin)) {
      throw new IllegalArgumentException("no password for the admin user " + admin);
    }
  }

  /** A listener that asks its clients for no certificate, only their login. */
  public SaslSslListener(
      final Path keyStore,
      final Path trustStore,
      final String admin,
      final Map<String, String> passwords) {
    this(keyStore, trustStore, admin, passwords, false);
  }

  /** The broker's settings for this listener, its authentication and its authorizer. */
  Map<String, String> brokerProperties() {
    final String listener = SecurityProtocol.SASL_SSL.name;
    final String prefix = "listener.name." + listener.toLowerCase() + "." + MECHANISM.toLowerCase();
    final Map<String, String> p = new LinkedHashMap<>();
    p.put("sasl.enabled.mechanisms", MECHANISM);
    p.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
    // The broker reaches itself over this listener too (transaction markers): as the admin.
    p.put(prefix + "." + SaslConfigs.SASL_JAAS_CONFIG, jaas(admin));
    p.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM");
    p.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keyStore.toString());
    p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
    p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore.toString());
    if (requireClientCertificate) {
      // A SASL_SSL listener takes ssl.client.auth only with its listener prefix (KIP-684).
      p.put("listener.name." + listener.toLowerCase() + ".ssl.client.auth", "required");
    }
    p.put("authorizer.class.name", AUTHORIZER);
    p.put("allow.everyone.if.no.acl.found", "false");
    p.put("super.users", "User:" + admin + ";User:ANONYMOUS");
    return p;
  }

  /** {@code kafka-storage format} arguments that create every SCRAM user. */
  List<String> formatArguments() {
    final List<String> args = new ArrayList<>();
    passwords.forEach(
        (name, password) -> {
          args.add("--add-scram");
          args.add(MECHANISM + "=[name=" + name + ",password=" + password + "]");
        });
    return args;
  }

  /**
   * The client settings (besides {@code bootstrap.servers}) with which {@code user} connects:
   * SASL_SSL, SCRAM-SHA-512 with its password, the CA's certificates as a PEM trust store, and a
   * PEM key store with a client certificate if the listener requires one.
   */
  public Map<String, Object> clientProperties(final String user) {
    final Map<String, Object> p = new LinkedHashMap<>();
    p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SecurityProtocol.SASL_SSL.name);
    p.put(SaslConfigs.SASL_MECHANISM, MECHANISM);
    p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(user));
    p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
    p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore.toString());
    if (requireClientCertificate) {
      // the broker's certificate is issued for clients too, by the CA the listener trusts
      p.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM");
      p.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keyStore.toString());
    }
    return p;
  }

  private String jaas(final String user) {
    final String password = passwords.get(user);
    if (password == null) {
      throw new IllegalArgumentException("no SCRAM user " + user);
    }
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
        + user
        + "\" password=\""
        + password
        + "\";";
  }

  /** Names the users, never their passwords. */
  @Override
  public String toString() {
    return "SaslSslListener[admin="
        + admin
        + ", users="
        + passwords.keySet()
        + (requireClientCertificate ? ", client certificates required" : "")
        + "]";
  }
}
