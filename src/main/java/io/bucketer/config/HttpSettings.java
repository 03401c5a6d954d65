package io.bucketer.config;

import static io.bucketer.config.SettingValidators.nonBlank;
import static io.bucketer.config.SettingValidators.span;
import static io.bucketer.config.SettingValidators.spanOfAtLeast;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.http.HttpSecurity;
import io.bucketer.query.QueryLimits;
import io.bucketer.security.ApiCredentials;
import io.bucketer.security.PemFiles;
import io.bucketer.security.SecurityMaterialException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The settings of the HTTP listener ({@code http.*}) and of the query API it serves ({@code
 * query.*}), and their typed values, read through {@link BucketerConfig#http()}. A new HTTP setting
 * is declared here, with its accessor: {@link BucketerConfig} composes this definition as it is.
 */
public final class HttpSettings {

  public static final String PORT = "http.port";
  public static final String BIND_ADDRESS = "http.bind.address";
  public static final String ADVERTISED_HOST = "http.advertised.host";
  public static final String TLS_CERT_FILE = "http.tls.cert.file";
  public static final String TLS_KEY_FILE = "http.tls.key.file";
  public static final String TLS_KEY_PASSWORD = "http.tls.key.password";
  public static final String TLS_CLIENT_AUTH = "http.tls.client.auth";
  public static final String TLS_CLIENT_CA_FILE = "http.tls.client.ca.file";
  public static final String TLS_PEER_CA_FILE = "http.tls.peer.ca.file";
  public static final String TLS_RELOAD_INTERVAL = "http.tls.reload.interval";
  public static final String AUTH_MODE = "http.auth.mode";
  public static final String AUTH_USERS_FILE = "http.auth.users.file";
  public static final String AUTH_TOKENS_FILE = "http.auth.tokens.file";
  public static final String AUTH_PEER_TOKEN_FILE = "http.auth.peer.token.file";
  public static final String METRICS_ACCESS = "http.metrics.access";
  public static final String MAX_CONCURRENT_QUERIES = "http.max.concurrent.queries";
  public static final String MAX_HEADER_BYTES = "http.max.header.bytes";
  public static final String IDLE_TIMEOUT = "http.idle.timeout";
  public static final String QUERY_MAX_RANGE = "query.max.range";
  public static final String QUERY_MAX_POINTS = "query.max.points";
  public static final String QUERY_TIMEOUT = "query.timeout";

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              PORT,
              Type.INT,
              8080,
              ConfigDef.Range.between(0, 65_535),
              Importance.MEDIUM,
              "Port of the HTTP listener: /metrics, /health, /ready, the query API and the chart"
                  + " page; 0 picks a free port.")
          .define(
              BIND_ADDRESS,
              Type.STRING,
              "0.0.0.0",
              nonBlank(),
              Importance.LOW,
              "Address the HTTP listener binds; 0.0.0.0 is every interface.")
          .define(
              ADVERTISED_HOST,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "Host name or address under which the other instances reach this one's http.port:"
                  + " a query for a series another instance holds is forwarded there (Kafka"
                  + " Streams' application.server). Empty: this machine's host name.")
          .define(
              QUERY_MAX_RANGE,
              Type.STRING,
              "366d",
              span(),
              Importance.LOW,
              "Longest range one query may cover; longer ones are refused with 400.")
          .define(
              QUERY_MAX_POINTS,
              Type.INT,
              2_000,
              ConfigDef.Range.atLeast(1),
              Importance.LOW,
              "Most points one chart query (/buckets) may answer: with a granularity given, more windows are"
                  + " refused with 400; with maxDataPoints or interval_ms, points are widened to fit.")
          .define(
              QUERY_TIMEOUT,
              Type.STRING,
              "30s",
              span(),
              Importance.LOW,
              "How long a query waits for MongoDB, or for the instance it was forwarded to.")
          .define(
              TLS_CERT_FILE,
              Type.STRING,
              "",
              Importance.HIGH,
              "PEM file of the HTTP listener's certificate chain, leaf first; with"
                  + " http.tls.key.file, the listener speaks HTTPS only. Empty: plain HTTP. Read"
                  + " again when it changes (see http.tls.reload.interval): a renewed certificate"
                  + " needs no restart.")
          .define(
              TLS_KEY_FILE,
              Type.STRING,
              "",
              Importance.HIGH,
              "PEM file of the certificate's private key: PKCS#8, PKCS#1 (RSA) or SEC1 (EC),"
                  + " encrypted or not.")
          .define(
              TLS_KEY_PASSWORD,
              Type.PASSWORD,
              null,
              Importance.MEDIUM,
              "Password of an encrypted http.tls.key.file (never printed; give it as"
                  + " ${file:...} to keep it out of the settings).")
          .define(
              TLS_CLIENT_AUTH,
              Type.STRING,
              "none",
              ConfigDef.ValidString.in("none", "requested", "required"),
              Importance.MEDIUM,
              "Client certificates (mutual TLS): none; requested (checked against"
                  + " http.tls.client.ca.file when a client shows one); required (a client"
                  + " without one from that CA cannot connect, probes included: give the"
                  + " kubelet's probes another way in or keep requested).")
          .define(
              TLS_CLIENT_CA_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM bundle of the CAs client certificates must chain to; needed unless"
                  + " http.tls.client.auth=none.")
          .define(
              TLS_PEER_CA_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM bundle of the CAs this instance trusts when it forwards a query to another"
                  + " over HTTPS. Empty: http.tls.client.ca.file if set, else the JVM's trust"
                  + " store. The instances' certificates must name the hosts they advertise"
                  + " (http.advertised.host).")
          .define(
              TLS_RELOAD_INTERVAL,
              Type.STRING,
              "30s",
              spanOfAtLeast(1_000),
              Importance.LOW,
              "How often the TLS files are checked for a change; a change is read without a"
                  + " restart, and a half-written renewal is retried until it is whole.")
          .define(
              AUTH_MODE,
              Type.STRING,
              HttpSecurity.AuthMode.LOOPBACK.name().toLowerCase(Locale.ROOT),
              ConfigDef.ValidString.in("loopback", "credentials", "open"),
              Importance.HIGH,
              "Who may call the query API, the chart page (and /metrics, see"
                  + " http.metrics.access). loopback: only this host, without credentials; other"
                  + " hosts get 403. credentials: anyone with a password from"
                  + " http.auth.users.file or a token from http.auth.tokens.file, from any host"
                  + " (this one too); others get 401. open: anyone who reaches the port, which"
                  + " run warns about. /health and /ready always answer.")
          .define(
              AUTH_USERS_FILE,
              Type.STRING,
              "",
              Importance.HIGH,
              "With http.auth.mode=credentials: a file of name:hash[:prefix,...] lines, the"
                  + " hash bcrypt or PBKDF2 (bucketer auth hash-password), the prefixes the sensor"
                  + " ids the user may see (none: all). Read again when it changes.")
          .define(
              AUTH_TOKENS_FILE,
              Type.STRING,
              "",
              Importance.HIGH,
              "With http.auth.mode=credentials: a file of name:sha256[:prefix,...] lines for"
                  + " bearer tokens (Authorization: Bearer ..., as Grafana sends), each the"
                  + " SHA-256 of a token (bucketer auth new-token). Read again when it changes.")
          .define(
              AUTH_PEER_TOKEN_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "With http.auth.mode=loopback and several instances on several hosts: a file"
                  + " holding a token all instances share, with which they forward queries for a"
                  + " series another one holds. Without it, such a query gets the other"
                  + " instance's 403. With credentials, the caller's own are forwarded instead.")
          .define(
              METRICS_ACCESS,
              Type.STRING,
              "api",
              ConfigDef.ValidString.in("open", "api", "off"),
              Importance.MEDIUM,
              "Who may scrape /metrics: api (the default: whoever may call the API, so with"
                  + " nothing configured only this host), open (anyone who reaches the port: the"
                  + " usual choice behind a NetworkPolicy that lets only Prometheus in), or off."
                  + " The metrics name topics and counts, never readings or secrets.")
          .define(
              MAX_CONCURRENT_QUERIES,
              Type.INT,
              16,
              ConfigDef.Range.atLeast(1),
              Importance.LOW,
              "Requests to the query API and the chart page served at once; more wait up to 2 s,"
                  + " then get 503.")
          .define(
              MAX_HEADER_BYTES,
              Type.INT,
              8_192,
              ConfigDef.Range.between(1_024, 65_536),
              Importance.LOW,
              "Largest request line and headers; larger requests get 431.")
          .define(
              IDLE_TIMEOUT,
              Type.STRING,
              "30s",
              spanOfAtLeast(1_000),
              Importance.LOW,
              "How long an HTTP connection may stay silent before it is closed.");

  private final AbstractConfig values;
  private final HttpSecurity security;

  /**
   * @throws ConfigException when the settings do not fit together, or a file they name cannot be
   *     used
   */
  HttpSettings(final AbstractConfig values) {
    this.values = values;
    this.security = readSecurity();
  }

  /** How the listener protects what it serves, its files read and checked. */
  public HttpSecurity security() {
    return security;
  }

  private HttpSecurity readSecurity() {
    return new HttpSecurity(
        tls(),
        access(),
        HttpSecurity.MetricsAccess.valueOf(
            values.getString(METRICS_ACCESS).toUpperCase(Locale.ROOT)),
        new HttpSecurity.Limits(
            values.getInt(MAX_CONCURRENT_QUERIES),
            values.getInt(MAX_HEADER_BYTES),
            TimeSpans.parse(values.getString(IDLE_TIMEOUT))));
  }

  private Optional<HttpSecurity.Tls> tls() {
    final Optional<Path> certificate = file(TLS_CERT_FILE);
    final Optional<Path> key = file(TLS_KEY_FILE);
    final HttpSecurity.ClientAuth clientAuth =
        HttpSecurity.ClientAuth.valueOf(values.getString(TLS_CLIENT_AUTH).toUpperCase(Locale.ROOT));
    if (certificate.isPresent() != key.isPresent()) {
      throw new ConfigException(
          (certificate.isPresent() ? TLS_KEY_FILE : TLS_CERT_FILE)
              + " must be set too: a certificate needs its key");
    }
    if (certificate.isEmpty()) {
      if (clientAuth != HttpSecurity.ClientAuth.NONE) {
        throw new ConfigException(
            TLS_CLIENT_AUTH + " needs TLS: set " + TLS_CERT_FILE + " and " + TLS_KEY_FILE);
      }
      return Optional.empty();
    }
    final Optional<Path> clientCa = file(TLS_CLIENT_CA_FILE);
    if (clientAuth != HttpSecurity.ClientAuth.NONE && clientCa.isEmpty()) {
      throw new ConfigException(
          TLS_CLIENT_AUTH
              + "="
              + values.getString(TLS_CLIENT_AUTH)
              + " needs "
              + TLS_CLIENT_CA_FILE);
    }
    final Password keyPassword = values.getPassword(TLS_KEY_PASSWORD);
    final HttpSecurity.Tls tls =
        new HttpSecurity.Tls(
            certificate.get(),
            key.get(),
            keyPassword == null ? null : keyPassword.value().toCharArray(),
            clientAuth,
            clientCa.orElse(null),
            file(TLS_PEER_CA_FILE).orElse(null),
            TimeSpans.parse(values.getString(TLS_RELOAD_INTERVAL)));
    try {
      // Read once now, so that a wrong file stops the start with its name, before any connection.
      PemFiles.keyStore(tls.certificate(), tls.key(), tls.keyPassword(), new char[0]);
      for (final Path bundle : new Path[] {tls.clientCa(), tls.peerCa()}) {
        if (bundle != null) {
          PemFiles.trustStore(bundle);
        }
      }
    } catch (SecurityMaterialException e) {
      throw new ConfigException("http.tls.*: " + e.getMessage());
    }
    return Optional.of(tls);
  }

  private HttpSecurity.Access access() {
    final HttpSecurity.AuthMode mode =
        HttpSecurity.AuthMode.valueOf(values.getString(AUTH_MODE).toUpperCase(Locale.ROOT));
    final Optional<Path> users = file(AUTH_USERS_FILE);
    final Optional<Path> tokens = file(AUTH_TOKENS_FILE);
    final Optional<Path> peerToken = file(AUTH_PEER_TOKEN_FILE);
    if (mode != HttpSecurity.AuthMode.CREDENTIALS && (users.isPresent() || tokens.isPresent())) {
      throw new ConfigException(
          AUTH_USERS_FILE
              + " and "
              + AUTH_TOKENS_FILE
              + " are used only with "
              + AUTH_MODE
              + "=credentials (it is "
              + values.getString(AUTH_MODE)
              + "): set it, so that the API asks for them");
    }
    if (mode == HttpSecurity.AuthMode.CREDENTIALS && users.isEmpty() && tokens.isEmpty()) {
      throw new ConfigException(
          AUTH_MODE + "=credentials needs " + AUTH_USERS_FILE + " or " + AUTH_TOKENS_FILE);
    }
    if (mode != HttpSecurity.AuthMode.LOOPBACK && peerToken.isPresent()) {
      throw new ConfigException(
          AUTH_PEER_TOKEN_FILE + " is used only with " + AUTH_MODE + "=loopback");
    }
    try {
      return switch (mode) {
        case OPEN -> HttpSecurity.Access.OPEN;
        case CREDENTIALS ->
            HttpSecurity.Access.withCredentials(
                ApiCredentials.load(users.orElse(null), tokens.orElse(null)));
        case LOOPBACK ->
            new HttpSecurity.Access(
                HttpSecurity.AuthMode.LOOPBACK,
                Optional.empty(),
                peerToken.map(HttpSettings::readToken));
      };
    } catch (SecurityMaterialException e) {
      throw new ConfigException("http.auth.*: " + e.getMessage());
    }
  }

  private static String readToken(final Path file) {
    final String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new SecurityMaterialException("cannot read " + file + ": " + e.getMessage());
    }
    if (token.length() < 16) {
      throw new SecurityMaterialException(
          file + " must hold a token of at least 16 characters (bucketer auth new-token)");
    }
    return token;
  }

  private Optional<Path> file(final String name) {
    return ClientTlsFiles.path(values, name);
  }

  /** Where the operations endpoints listen. */
  public InetSocketAddress address() {
    return new InetSocketAddress(values.getString(BIND_ADDRESS), values.getInt(PORT));
  }

  /** This instance's query endpoint as the other instances reach it. */
  public String advertisedHost() {
    final String configured = values.getString(ADVERTISED_HOST);
    if (!configured.isBlank()) {
      return configured;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      throw new ConfigException(
          ADVERTISED_HOST, configured, "this machine's host name is unknown: set it");
    }
  }

  public QueryLimits queryLimits() {
    return new QueryLimits(
        TimeSpans.parse(values.getString(QUERY_MAX_RANGE)),
        values.getInt(QUERY_MAX_POINTS),
        TimeSpans.parse(values.getString(QUERY_TIMEOUT)));
  }
}
