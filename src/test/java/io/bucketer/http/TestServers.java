package io.bucketer.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;

/** Endpoints served by the product's own server on a free loopback port, for tests. */
final class TestServers {

  private TestServers() {}

  /** The data endpoints by path prefix, with the default security (this host only). */
  static OpsServer serve(final Map<String, Endpoint> data) {
    return serve(HttpSecurity.DEFAULT, data);
  }

  static OpsServer serve(final HttpSecurity security, final Map<String, Endpoint> data) {
    final OpsServer server = bind(security);
    server.serve(() -> "", () -> true, Optional::empty, data);
    return server;
  }

  static OpsServer bind(final HttpSecurity security) {
    return OpsServer.bind(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), security, reason -> {});
  }
}
