package io.bucketer.config;

import static io.bucketer.config.SettingValidators.nonBlank;
import static io.bucketer.config.SettingValidators.span;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.query.QueryLimits;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The settings of the HTTP listener ({@code http.*}) and of the query API it serves ({@code
 * query.*}), and their typed values, read through {@link BucketerConfig#http()}. A new HTTP setting
 * is declared here, with its accessor: {@link BucketerConfig} composes this definition as it is.
 */
public final class HttpSettings {

  public static final String PORT = "http.port";
  public static final String BIND_ADDRESS = "http.bind.address";
  public static final String ADVERTISED_HOST = "http.advertised.host";
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
              "Port of the operations endpoints (/metrics, /health, /ready); 0 picks a free"
                  + " port.")
          .define(
              BIND_ADDRESS,
              Type.STRING,
              "0.0.0.0",
              nonBlank(),
              Importance.LOW,
              "Address the operations endpoints listen on; 0.0.0.0 is every interface.")
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
              "Most windows one chart query (/buckets) may cover; more are refused with 400.")
          .define(
              QUERY_TIMEOUT,
              Type.STRING,
              "30s",
              span(),
              Importance.LOW,
              "How long a query waits for MongoDB, or for the instance it was forwarded to.");

  private final AbstractConfig values;

  HttpSettings(final AbstractConfig values) {
    this.values = values;
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
