package io.bucketer.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself (a malformed request, headers too large, a full queue) as the
 * API's own: {@code {"error": "<the status' reason phrase>"}}. Jetty's message and cause are left
 * out: they may name its classes, and a client needs only the status.
 */
final class JsonErrorHandler extends ErrorHandler {

  @Override
  protected void generateResponse(
      final Request request,
      final Response response,
      final int code,
      final String message,
      final Throwable cause,
      final Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, HttpAnswer.JSON);
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.write(true, body(code), callback);
  }

  @Override
  public ByteBuffer badMessageError(
      final int status, final String reason, final HttpFields.Mutable fields) {
    fields.put(new HttpField(HttpHeader.CONTENT_TYPE, HttpAnswer.JSON));
    return body(status);
  }

  private static ByteBuffer body(final int code) {
    final String phrase = HttpStatus.getMessage(code);
    return ByteBuffer.wrap(
        ("{\"error\":\"" + (phrase == null ? "error" : phrase) + "\"}\n")
            .getBytes(StandardCharsets.UTF_8));
  }
}
