package io.bucketer.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The query string of a request, decoded; each accessor throws {@link IllegalArgumentException}
 * with a message for the client when a parameter is missing or malformed.
 */
final class QueryParameters {

  private final Map<String, String> values = new HashMap<>();

  QueryParameters(final String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return;
    }
    for (final String pair : rawQuery.split("&")) {
      final int equals = pair.indexOf('=');
      if (equals > 0) {
        values.put(decode(pair.substring(0, equals)), decode(pair.substring(equals + 1)));
      }
    }
  }

  static String decode(final String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  Optional<String> optional(final String name) {
    return Optional.ofNullable(values.get(name)).filter(value -> !value.isEmpty());
  }

  String required(final String name, final String what) {
    return optional(name)
        .orElseThrow(() -> new IllegalArgumentException(name + " is required, " + what));
  }

  Instant instant(final String name) {
    final String text = required(name, "an ISO-8601 instant");
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name + " is not an ISO-8601 instant such as 2026-11-22T14:00:00Z: " + text, e);
    }
  }

  int integer(final String name, final int fallback, final int min, final int max) {
    final Optional<String> text = optional(name);
    if (text.isEmpty()) {
      return fallback;
    }
    try {
      final int value = Integer.parseInt(text.get());
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            name + " must be between " + min + " and " + max + ": " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is not a whole number: " + text.get(), e);
    }
  }
}
