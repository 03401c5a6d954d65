package io.bucketer.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes a query on to the instance that holds its series, and its answer back as it is: the client
 * sees one API whichever instance it asks. A forwarded request carries {@link #HEADER}, and is
 * never forwarded again, so two instances that disagree during a rebalance cannot bounce it.
 *
 * <p>The caller's own credentials go along, and the instance that answers checks them again,
 * prefixes included: forwarding opens no way around them. Only a caller that needed none (one on
 * this instance's own host, when the API answers only its host) is vouched for with the peer token.
 */
final class QueryForwarder {

  static final String HEADER = "X-Bucketer-Forwarded-By";
  static final String SERVED_BY = "X-Bucketer-Served-By";
  static final String AUTHORIZATION = "Authorization";
  private static final Logger LOG = LoggerFactory.getLogger(QueryForwarder.class);
  private static final List<String> RELAYED = List.of("Retry-After", SERVED_BY, "WWW-Authenticate");

  private final String self;
  private final Duration timeout;
  private final PeerAccess peers;
  private SSLContext clientTls;
  private HttpClient client;

  QueryForwarder(final String self, final Duration timeout, final PeerAccess peers) {
    this.self = self;
    this.timeout = timeout;
    this.peers = peers;
  }

  static boolean wasForwarded(final HttpCall call) {
    return call.header(HEADER).isPresent();
  }

  HttpAnswer forward(final HttpCall call, final String host, final int port) {
    final URI target =
        URI.create(
            peers.scheme()
                + "://"
                + host
                + ":"
                + port
                + call.rawPath()
                + (call.rawQuery() == null ? "" : "?" + call.rawQuery()));
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(target).timeout(timeout).header(HEADER, self).GET();
    call.header(AUTHORIZATION)
        .or(() -> peers.peerToken().map(token -> "Bearer " + token))
        .ifPresent(credentials -> request.header(AUTHORIZATION, credentials));
    final HttpResponse<byte[]> answer;
    try {
      answer = client().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      LOG.warn(
          "the instance at {}:{} did not answer a forwarded query: {}", host, port, e.toString());
      return HttpAnswer.error(
          502, "the instance holding this series, " + host + ":" + port + ", did not answer");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return HttpAnswer.error(503, "interrupted while asking " + host + ":" + port);
    }
    HttpAnswer relayed =
        new HttpAnswer(
            answer.statusCode(),
            answer.headers().firstValue("Content-Type").orElse(HttpAnswer.JSON),
            Map.of(),
            answer.body());
    for (final String header : RELAYED) {
      final var value = answer.headers().firstValue(header);
      if (value.isPresent()) {
        relayed = relayed.with(header, value.get());
      }
    }
    return relayed;
  }

  /** The client, made again when the TLS material was reloaded. */
  private synchronized HttpClient client() {
    final SSLContext tls = peers.tls() == null ? null : peers.tls().get();
    if (client == null || tls != clientTls) {
      final HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
      if (tls != null) {
        builder.sslContext(tls);
      }
      client = builder.build();
      clientTls = tls;
    }
    return client;
  }
}
