package io.bucketer.http;

import io.bucketer.security.Caller;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Carries Jetty's requests to the endpoints and their answers back: finds the endpoint of a path,
 * asks the gate who the caller is for the data endpoints, and adds the headers every answer
 * carries. The only class besides {@link OpsServer} that knows Jetty.
 */
final class JettyAdapter extends Handler.Abstract {

  private static final HttpAnswer NOT_FOUND =
      HttpAnswer.text(404, "text/plain; charset=utf-8", "not found\n");
  private static final Caller NOBODY = Caller.unrestricted("probe");

  private final Map<String, Endpoint> open;
  private final Map<String, Endpoint> gated;
  private final List<Map.Entry<String, Endpoint>> data;
  private final AccessGate gate;
  private final boolean secure;

  /**
   * @param open endpoints anyone may call, by exact path
   * @param gated endpoints behind the gate, by exact path
   * @param data endpoints behind the gate, by path prefix, longest first
   */
  JettyAdapter(
      final Map<String, Endpoint> open,
      final Map<String, Endpoint> gated,
      final List<Map.Entry<String, Endpoint>> data,
      final AccessGate gate,
      final boolean secure) {
    this.open = open;
    this.gated = gated;
    this.data = data;
    this.gate = gate;
    this.secure = secure;
  }

  @Override
  public InvocationType getInvocationType() {
    // The endpoints wait on MongoDB and on other instances: never on a selector thread.
    return InvocationType.BLOCKING;
  }

  @Override
  public boolean handle(final Request request, final Response response, final Callback callback) {
    final String path = request.getHttpURI().getPath();
    final HttpAnswer answer = answer(request, path == null ? "/" : path);
    write(request, response, callback, answer);
    return true;
  }

  private HttpAnswer answer(final Request request, final String path) {
    final Endpoint probe = open.get(path);
    if (probe != null) {
      return probe.answer(call(request, path, NOBODY));
    }
    final Endpoint endpoint = gated.containsKey(path) ? gated.get(path) : dataEndpoint(path);
    if (endpoint == null) {
      return NOT_FOUND;
    }
    final AccessGate.Decision decision =
        gate.decide(
            remoteAddress(request),
            Optional.ofNullable(request.getHeaders().get(HttpHeader.AUTHORIZATION)));
    if (decision instanceof AccessGate.Refused refused) {
      return refused.answer();
    }
    return endpoint.answer(call(request, path, ((AccessGate.Allowed) decision).caller()));
  }

  private Endpoint dataEndpoint(final String path) {
    for (final Map.Entry<String, Endpoint> entry : data) {
      if (path.startsWith(entry.getKey())) {
        return entry.getValue();
      }
    }
    return null;
  }

  private static HttpCall call(final Request request, final String path, final Caller caller) {
    return new HttpCall(
        request.getMethod(),
        path,
        request.getHttpURI().getQuery(),
        name -> Optional.ofNullable(request.getHeaders().get(name)),
        caller);
  }

  private static InetAddress remoteAddress(final Request request) {
    final SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }

  private void write(
      final Request request,
      final Response response,
      final Callback callback,
      final HttpAnswer answer) {
    response.setStatus(answer.status());
    final var headers = response.getHeaders();
    headers.put(HttpHeader.CONTENT_TYPE, answer.contentType());
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Referrer-Policy", "no-referrer");
    headers.put("X-Frame-Options", "DENY");
    headers.put(HttpHeader.CACHE_CONTROL, "no-store");
    answer.headers().forEach(headers::put);
    headers.put(HttpHeader.CONTENT_LENGTH, answer.body().length);
    final boolean head = HttpMethod.HEAD.is(request.getMethod());
    response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(answer.body()), callback);
  }
}
