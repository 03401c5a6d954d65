package io.bucketer.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.SeriesOwner;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoreUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query API, under {@code /api/v1/series}:
 *
 * <ul>
 *   <li>{@code GET /api/v1/series?prefix=&limit=}: stored series, and the granularities;
 *   <li>{@code GET /api/v1/series/{sensor_id}/statistics?metric=&from=&to=}: count, sum, avg, min,
 *       max over {@code [from, to)};
 *   <li>{@code GET /api/v1/series/{sensor_id}/buckets?metric=&granularity=&from=&to=}: the windows
 *       of one granularity over the range, for charts.
 * </ul>
 *
 * A request is checked here (400), then answered by the instance holding the series' live state:
 * here, or forwarded to it. Answers include open windows. 404 for a series with no window anywhere;
 * 503 with Retry-After while no instance holds the series (a rebalance).
 */
public final class SeriesApi implements HttpHandler {

  public static final String PATH = "/api/v1/series";
  private static final Logger LOG = LoggerFactory.getLogger(SeriesApi.class);
  private static final int MAX_SERIES_LISTED = 1_000;

  private final SeriesQueries queries;
  private final Function<SeriesKey, SeriesOwner> owners;
  private final QueryLimits limits;
  private final QueryForwarder forwarder;
  private final String self;

  /**
   * @param owners which instance holds a series' state
   * @param self this instance's advertised endpoint, {@code host:port}
   */
  public SeriesApi(
      final SeriesQueries queries,
      final Function<SeriesKey, SeriesOwner> owners,
      final QueryLimits limits,
      final String self) {
    this.queries = queries;
    this.owners = owners;
    this.limits = limits;
    this.self = self;
    this.forwarder = new QueryForwarder(self, limits.timeout());
  }

  @Override
  public void handle(final HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set(QueryForwarder.SERVED_BY, self);
      if (!"GET".equals(exchange.getRequestMethod())) {
        JsonResponses.error(exchange, 405, "only GET is served here");
        return;
      }
      final String path = exchange.getRequestURI().getRawPath();
      final QueryParameters parameters =
          new QueryParameters(exchange.getRequestURI().getRawQuery());
      try {
        if (path.equals(PATH) || path.equals(PATH + "/")) {
          listSeries(exchange, parameters);
        } else {
          answerForSeries(exchange, path, parameters);
        }
      } catch (IllegalArgumentException e) {
        JsonResponses.error(exchange, 400, e.getMessage());
      } catch (InvalidStateStoreException e) {
        exchange.getResponseHeaders().set("Retry-After", "1");
        JsonResponses.error(exchange, 503, "the series' state is moving: " + e.getMessage());
      } catch (StoreUnavailableException e) {
        exchange.getResponseHeaders().set("Retry-After", "5");
        JsonResponses.error(exchange, 503, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("query {} failed", exchange.getRequestURI(), e);
        JsonResponses.error(exchange, 500, "the query failed: " + e);
      }
    }
  }

  private void listSeries(final HttpExchange exchange, final QueryParameters parameters)
      throws IOException {
    final int limit = parameters.integer("limit", 100, 1, MAX_SERIES_LISTED);
    final String prefix = parameters.optional("prefix").orElse("");
    final List<Map<String, Object>> series =
        queries.series(prefix, limit).stream()
            .map(
                key -> {
                  final Map<String, Object> entry = new LinkedHashMap<>();
                  entry.put("sensor_id", key.sensorId());
                  entry.put("metric", key.metric());
                  return entry;
                })
            .toList();
    final Map<String, Object> body = new LinkedHashMap<>();
    body.put("series", series);
    body.put("granularities", queries.granularities().stream().map(Granularity::label).toList());
    JsonResponses.respond(exchange, 200, body);
  }

  private void answerForSeries(
      final HttpExchange exchange, final String path, final QueryParameters parameters)
      throws IOException {
    // /api/v1/series/{sensor_id}/{operation}; the id is percent-encoded, so it may hold a '/'.
    final int lastSlash = path.lastIndexOf('/');
    final String operation = path.substring(lastSlash + 1);
    if (!path.startsWith(PATH + "/")
        || lastSlash <= PATH.length() + 1
        || !(operation.equals("statistics") || operation.equals("buckets"))) {
      JsonResponses.error(exchange, 404, "not found: " + path);
      return;
    }
    final String sensorId = QueryParameters.decode(path.substring(PATH.length() + 1, lastSlash));
    final SeriesKey series = new SeriesKey(sensorId, parameters.optional("metric").orElse(null));
    final Instant from = parameters.instant("from");
    final Instant to = parameters.instant("to");
    checkRange(from, to);
    final Granularity granularity =
        operation.equals("buckets") ? chartGranularity(parameters, from, to) : null;

    final SeriesOwner owner = owners.apply(series);
    if (owner instanceof SeriesOwner.Remote remote && !QueryForwarder.wasForwarded(exchange)) {
      forwarder.forward(exchange, remote.host(), remote.port());
    } else if (owner instanceof SeriesOwner.Local local) {
      if (!queries.exists(series, local.windows())) {
        JsonResponses.error(exchange, 404, "no buckets for series " + series);
      } else if (granularity == null) {
        JsonResponses.respond(exchange, 200, statistics(series, from, to, local.windows()));
      } else {
        JsonResponses.respond(
            exchange, 200, windows(series, granularity, from, to, local.windows()));
      }
    } else {
      exchange.getResponseHeaders().set("Retry-After", "1");
      JsonResponses.error(
          exchange,
          503,
          owner instanceof SeriesOwner.Unavailable unavailable
              ? unavailable.reason()
              : "the instances disagree on who holds series " + series + "; retry");
    }
  }

  private void checkRange(final Instant from, final Instant to) {
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("from must be before to");
    }
    if (Duration.between(from, to).compareTo(limits.maxRange()) > 0) {
      throw new IllegalArgumentException(
          "the range is longer than the limit of " + limits.maxRange() + " (query.max.range)");
    }
  }

  private Granularity chartGranularity(
      final QueryParameters parameters, final Instant from, final Instant to) {
    final String label =
        parameters.required("granularity", "one of " + labels(queries.granularities()));
    final Granularity granularity =
        queries.granularities().stream()
            .filter(g -> g.label().equals(label))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "granularity must be one of "
                            + labels(queries.granularities())
                            + ": "
                            + label));
    final long first = granularity.windowStart(from.toEpochMilli());
    final long size = granularity.sizeMillis();
    final long points = Math.floorDiv(to.toEpochMilli() - first + size - 1, size);
    if (points > limits.maxPoints()) {
      throw new IllegalArgumentException(
          "the range holds "
              + points
              + " windows of "
              + label
              + ", over the limit of "
              + limits.maxPoints()
              + " (query.max.points): choose a coarser granularity or a shorter range");
    }
    return granularity;
  }

  private static List<String> labels(final List<Granularity> granularities) {
    return granularities.stream().map(Granularity::label).toList();
  }

  private Map<String, Object> statistics(
      final SeriesKey series, final Instant from, final Instant to, final LiveWindows live) {
    return SeriesAnswers.statistics(
        series, from, to, queries.statistics(series, from.toEpochMilli(), to.toEpochMilli(), live));
  }

  private Map<String, Object> windows(
      final SeriesKey series,
      final Granularity granularity,
      final Instant from,
      final Instant to,
      final LiveWindows live) {
    return SeriesAnswers.windows(
        series,
        granularity,
        from,
        to,
        queries.windows(series, granularity, from.toEpochMilli(), to.toEpochMilli(), live));
  }
}
