package io.bucketer.testing;

import io.bucketer.config.MongoSettings;
import java.util.Map;

/** Settings for a processor whose MongoDB a test cuts off: it is reached through a proxy. */
public final class MongoThroughProxy {

  private MongoThroughProxy() {}

  /**
   * MongoDB through {@code proxy}, with client timeouts short enough that a write to the cut proxy
   * fails in about a second, and a sink that soon tries again.
   */
  public static Map<String, String> settings(final CuttableTcpProxy proxy) {
    return Map.of(
        MongoSettings.URI,
        "mongodb://127.0.0.1:"
            + proxy.port()
            + "/?serverSelectionTimeoutMS=1000&connectTimeoutMS=1000&socketTimeoutMS=2000",
        MongoSettings.SINK_WRITE_TIMEOUT,
        "3s",
        MongoSettings.SINK_RETRY_BACKOFF_MAX,
        "1s");
  }
}
