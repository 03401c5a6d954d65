package io.bucketer.http;

/** Answers the requests of one path or path prefix. May block: each call has its own thread. */
@FunctionalInterface
public interface Endpoint {

  HttpAnswer answer(HttpCall call);
}
