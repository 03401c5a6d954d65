package io.bucketer.http;

import io.bucketer.security.Caller;
import java.util.Optional;
import java.util.function.Function;

/**
 * A request as the endpoints see it, whatever server carries it: the method, the raw (still
 * percent-encoded) path and query, its headers, and the caller it was authenticated as.
 */
public record HttpCall(
    String method,
    String rawPath,
    String rawQuery,
    Function<String, Optional<String>> headers,
    Caller caller) {

  public Optional<String> header(final String name) {
    return headers.apply(name);
  }
}
