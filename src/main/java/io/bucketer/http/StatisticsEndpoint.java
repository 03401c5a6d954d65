package io.bucketer.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.StoredRangeStatistics;
import io.bucketer.query.StoredRangeStatistics.Statistics;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/v1/series/{sensor_id}/statistics?metric=...&from=...&to=...}: count, sum, avg,
 * min and max of one series over {@code [from, to)} (ISO-8601 instants), from the closed buckets in
 * MongoDB, with the number of documents read. 400 with a message for a malformed request, 404 for a
 * series with no stored bucket.
 */
public final class StatisticsEndpoint implements HttpHandler {

  public static final String PATH = "/api/v1/series/";
  private static final String SUFFIX = "/statistics";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final StoredRangeStatistics statistics;
  private final Duration maxRange;

  /**
   * @param maxRange the longest range one request may ask for: a long one reads many documents
   */
  public StatisticsEndpoint(final StoredRangeStatistics statistics, final Duration maxRange) {
    this.statistics = statistics;
    this.maxRange = maxRange;
  }

  @Override
  public void handle(final HttpExchange exchange) throws IOException {
    try (exchange) {
      final String path = exchange.getRequestURI().getRawPath();
      if (!"GET".equals(exchange.getRequestMethod())) {
        respond(exchange, 405, error("only GET is served here"));
      } else if (!path.startsWith(PATH)
          || !path.endsWith(SUFFIX)
          || path.length() <= PATH.length() + SUFFIX.length()) {
        respond(exchange, 404, error("not found: " + path));
      } else {
        answer(exchange, decode(path.substring(PATH.length(), path.length() - SUFFIX.length())));
      }
    }
  }

  private void answer(final HttpExchange exchange, final String sensorId) throws IOException {
    final Map<String, String> parameters = parameters(exchange.getRequestURI().getRawQuery());
    final Instant from;
    final Instant to;
    try {
      from = instant(parameters, "from");
      to = instant(parameters, "to");
    } catch (IllegalArgumentException e) {
      respond(exchange, 400, error(e.getMessage()));
      return;
    }
    if (!from.isBefore(to)) {
      respond(exchange, 400, error("from must be before to"));
      return;
    }
    if (Duration.between(from, to).compareTo(maxRange) > 0) {
      respond(exchange, 400, error("the range is longer than the limit of " + maxRange));
      return;
    }
    final SeriesKey series = new SeriesKey(sensorId, parameters.get("metric"));
    if (!statistics.hasSeries(series, TIMEOUT)) {
      respond(exchange, 404, error("no buckets for series " + series));
      return;
    }
    final Statistics found =
        statistics.over(series, from.toEpochMilli(), to.toEpochMilli(), TIMEOUT);
    final Map<String, Object> body = new LinkedHashMap<>();
    body.put("sensor_id", series.sensorId());
    body.put("metric", series.metric());
    body.put("from", from.toString());
    body.put("to", to.toString());
    body.put("count", found.count());
    body.put("sum", found.count() == 0 ? null : found.sum());
    body.put("avg", found.count() == 0 ? null : found.average());
    body.put("min", found.count() == 0 ? null : found.min());
    body.put("max", found.count() == 0 ? null : found.max());
    body.put("documents_read", found.documentsRead());
    respond(exchange, 200, body);
  }

  private static Instant instant(final Map<String, String> parameters, final String name) {
    final String text = parameters.get(name);
    if (text == null) {
      throw new IllegalArgumentException(name + " is required, an ISO-8601 instant");
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name + " is not an ISO-8601 instant such as 2026-11-22T14:00:00Z: " + text, e);
    }
  }

  private static Map<String, String> parameters(final String rawQuery) {
    final Map<String, String> parameters = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return parameters;
    }
    for (final String pair : rawQuery.split("&")) {
      final int equals = pair.indexOf('=');
      if (equals > 0) {
        parameters.put(decode(pair.substring(0, equals)), decode(pair.substring(equals + 1)));
      }
    }
    return parameters;
  }

  private static String decode(final String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  private static Map<String, Object> error(final String message) {
    return Map.of("error", message);
  }

  private static void respond(final HttpExchange exchange, final int status, final Object body)
      throws IOException {
    final byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
