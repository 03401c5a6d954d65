package io.bucketer.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The query string of a request, decoded; each accessor throws {@link IllegalArgumentException}
 * with a message for the client when a parameter is missing or malformed.
 */
final class QueryParameters {

  /** Longer than any sensor id or metric name a gateway sends. */
  private static final int MAX_NAME_LENGTH = 1_024;

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
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed percent-encoding", e);
    }
  }

  /**
   * A decoded name (a sensor id, a metric, a prefix), refused when it holds a control character:
   * MongoDB's strings cannot hold NUL, and no sensor id holds a control character.
   */
  static String text(final String what, final String raw) {
    return checkedName(what, decode(raw));
  }

  /** The parameter as a name (see {@link #text(String, String)}), if it is given. */
  Optional<String> text(final String name) {
    return optional(name).map(value -> checkedName(name, value));
  }

  private static String checkedName(final String what, final String decoded) {
    if (decoded.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(
          what + " is longer than " + MAX_NAME_LENGTH + " characters");
    }
    if (decoded.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(what + " holds a control character");
    }
    return decoded;
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
          name + " is not an ISO-8601 instant such as 2026-11-22T14:00:00Z", e);
    }
  }

  /** A whole number in {@code [min, max]}, if it is given. */
  OptionalLong whole(final String name, final long min, final long max) {
    final Optional<String> text = optional(name);
    if (text.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      final long value = Long.parseLong(text.get());
      if (value < min || value > max) {
        throw new IllegalArgumentException(name + " must be between " + min + " and " + max);
      }
      return OptionalLong.of(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is not a whole number", e);
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
        throw new IllegalArgumentException(name + " must be between " + min + " and " + max);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is not a whole number", e);
    }
  }
}
