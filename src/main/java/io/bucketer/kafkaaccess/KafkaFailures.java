package io.bucketer.kafkaaccess;

import io.bucketer.security.TlsFailures;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.security.JaasContext;

/**
 * Why a Kafka client failed, in the one line an operator acts on: {@code kafka at <bootstrap>:
 * <cause>}, the cause one of unreachable, TLS trust (naming the trust store the client used),
 * certificate refused, authentication failed (the mechanism and the user named in {@code
 * sasl.jaas.config}, never its password) or not authorised ({@link NotAuthorised}'s line). {@code
 * run} and {@code check} say the same thing of the same failure.
 *
 * <p>Only unreachable is worth retrying: the other causes are the configuration's, and no retry
 * fixes them.
 */
public final class KafkaFailures {

  /** What went wrong, as far as the client's exceptions tell. */
  public enum Cause {
    UNREACHABLE,
    TLS_TRUST,
    CERTIFICATE_REFUSED,
    TLS_HANDSHAKE,
    AUTHENTICATION_FAILED,
    NOT_AUTHORISED;

    /** True when waiting may fix it: the cluster may come back, a configuration will not change. */
    public boolean retryable() {
      return this == UNREACHABLE;
    }
  }

  /** A classified failure and its one line. */
  public record Failure(Cause cause, String line) {}

  private static final int MAX_DEPTH = 32;

  private final String bootstrap;
  private final Duration timeout;
  private final NotAuthorised notAuthorised;
  private final String trust;
  private final Optional<String> certificate;
  private final String login;

  /**
   * @param clientProperties the clients' settings: bootstrap servers, {@code ssl.*}, {@code sasl.*}
   * @param timeout how long the clients wait for an answer, for the unreachable line
   * @param notAuthorised says what an authorizer's refusal lacks
   */
  public KafkaFailures(
      final Map<String, Object> clientProperties,
      final Duration timeout,
      final NotAuthorised notAuthorised) {
    this.bootstrap =
        String.valueOf(clientProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    this.timeout = timeout;
    this.notAuthorised = notAuthorised;
    this.trust = trustOf(clientProperties);
    this.certificate = certificateOf(clientProperties);
    this.login = loginOf(clientProperties);
  }

  /** The cause of {@code error} among its causes, if it is one this knows; else empty. */
  public Optional<Failure> classify(final Throwable error) {
    // Kafka's clients handle other TLS errors (a reset connection) as disconnects: only a failed
    // handshake reaches the caller, as an SslAuthenticationException
    final SslAuthenticationException handshake = find(error, SslAuthenticationException.class);
    final Optional<String> tls =
        handshake == null ? Optional.empty() : TlsFailures.describe(handshake, trust, certificate);
    if (tls.isPresent()) {
      final String line = tls.get();
      return Optional.of(
          failure(
              line.startsWith("TLS trust")
                  ? Cause.TLS_TRUST
                  : line.startsWith("certificate refused")
                      ? Cause.CERTIFICATE_REFUSED
                      : Cause.TLS_HANDSHAKE,
              line));
    }
    final AuthenticationException authentication = find(error, AuthenticationException.class);
    if (authentication instanceof SaslAuthenticationException) {
      return Optional.of(failure(Cause.AUTHENTICATION_FAILED, "authentication failed: " + login));
    }
    if (authentication != null) {
      // an SslAuthenticationException whose cause the JDK did not say; Kafka's first line then
      return Optional.of(
          failure(Cause.TLS_HANDSHAKE, "TLS handshake failed: " + firstLine(authentication)));
    }
    final Optional<String> refused = notAuthorised.line(error);
    if (refused.isPresent()) {
      return Optional.of(new Failure(Cause.NOT_AUTHORISED, refused.get()));
    }
    if (find(error, TimeoutException.class) != null
        || find(error, java.util.concurrent.TimeoutException.class) != null) {
      return Optional.of(unreachable());
    }
    return Optional.empty();
  }

  /** The cluster gave no answer within the clients' timeout. */
  public Failure unreachable() {
    return failure(
        Cause.UNREACHABLE, "unreachable: no answer within " + timeout.toSeconds() + " s");
  }

  /** {@code kafka at <bootstrap>: <detail>}, for a failure a caller classified itself. */
  public String line(final String detail) {
    return "kafka at " + bootstrap + ": " + detail;
  }

  /** The line of a failure {@link #classify} does not know: the first line of Kafka's words. */
  public String unclassified(final Throwable cause) {
    return line(firstLine(cause));
  }

  /**
   * The one line for any failure: {@link #classify}'s, else the first line of the innermost cause,
   * which holds Kafka's own words where the wrappers around it hold only class names.
   */
  public String describe(final Throwable error) {
    return classify(error).map(Failure::line).orElseGet(() -> unclassified(innermost(error)));
  }

  private static Throwable innermost(final Throwable error) {
    Throwable cause = error;
    // bounded, as find is
    for (int depth = 0; cause.getCause() != null && depth < MAX_DEPTH; depth++) {
      cause = cause.getCause();
    }
    return cause;
  }

  private Failure failure(final Cause cause, final String detail) {
    return new Failure(cause, line(detail));
  }

  private static String trustOf(final Map<String, Object> properties) {
    final Object location = properties.get(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG);
    if (location != null && !String.valueOf(location).isBlank()) {
      return "the trust store "
          + location
          + " (kafka."
          + SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG
          + ")";
    }
    if (properties.get(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG) != null) {
      return "the certificates in kafka." + SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG;
    }
    return "the JVM's trust store (no kafka." + SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG + ")";
  }

  private static Optional<String> certificateOf(final Map<String, Object> properties) {
    final Object location = properties.get(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG);
    if (location != null && !String.valueOf(location).isBlank()) {
      return Optional.of("the one in " + location);
    }
    if (properties.get(SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG) != null) {
      return Optional.of("the one in kafka." + SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG);
    }
    return Optional.empty();
  }

  /**
   * "SCRAM-SHA-512 as user 'bucketer'": the mechanism, and the user from the JAAS configuration as
   * Kafka's own parser reads it. Its options hold the password too: only the user name is taken.
   */
  private static String loginOf(final Map<String, Object> properties) {
    final Object mechanism = properties.get(SaslConfigs.SASL_MECHANISM);
    final String named =
        mechanism == null ? SaslConfigs.DEFAULT_SASL_MECHANISM : String.valueOf(mechanism);
    return named + userOf(properties).map(user -> " as user '" + user + "'").orElse("");
  }

  private static Optional<String> userOf(final Map<String, Object> properties) {
    final Object jaas = properties.get(SaslConfigs.SASL_JAAS_CONFIG);
    if (jaas == null) {
      return Optional.empty();
    }
    final Map<String, Object> config = new HashMap<>();
    // Kafka's parser takes the setting as its config type, a Password
    config.put(
        SaslConfigs.SASL_JAAS_CONFIG,
        jaas instanceof Password password ? password : new Password(String.valueOf(jaas)));
    try {
      for (final AppConfigurationEntry entry :
          JaasContext.loadClientContext(config).configurationEntries()) {
        for (final String option : new String[] {"username", "principal"}) {
          final Object user = entry.getOptions().get(option);
          if (user != null) {
            return Optional.of(String.valueOf(user));
          }
        }
      }
    } catch (IllegalArgumentException | SecurityException e) {
      // a configuration Kafka cannot read fails the client itself, with Kafka's message
    }
    return Optional.empty();
  }

  private static String firstLine(final Throwable cause) {
    final String message = cause.getMessage() == null ? "no reason given" : cause.getMessage();
    return message.lines().findFirst().orElse(message);
  }

  private static <T extends Throwable> T find(final Throwable error, final Class<T> type) {
    Throwable cause = error;
    // bounded: a cause chain with a cycle must not hang a failing thread
    for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
      cause = cause.getCause();
    }
    return null;
  }
}
