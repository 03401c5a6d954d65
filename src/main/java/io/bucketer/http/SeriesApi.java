package io.bucketer.http;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.GapFill;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.Quantiles;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.Resolution;
import io.bucketer.query.SeriesOwner;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoreUnavailableException;
import io.bucketer.security.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
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
 *       max over {@code [from, to)}, the time-weighted fields and quantiles ({@code quantiles=} for
 *       others than p50, p90, p95 and p99);
 *   <li>{@code GET /api/v1/series/{sensor_id}/buckets?metric=&granularity=&from=&to=}: the windows
 *       of one granularity over the range, for charts; or, with {@code maxDataPoints=} or {@code
 *       interval_ms=} instead of the granularity, points merged from the windows of one picked for
 *       them ({@link Resolution}); {@code fill=} for the points without readings, {@code
 *       quantiles=} as for statistics.
 * </ul>
 *
 * A request is checked here (400), then answered by the instance holding the series' live state:
 * here, or forwarded to it. Answers include open windows. 404 for a series with no window anywhere,
 * and for one outside the caller's prefixes (it does not exist for that caller); 503 with
 * Retry-After while no instance holds the series (a rebalance).
 */
public final class SeriesApi implements Endpoint {

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
    this(queries, owners, limits, self, PeerAccess.PLAIN);
  }

  /**
   * @param owners which instance holds a series' state
   * @param self this instance's advertised endpoint, {@code host:port}
   * @param peers how to reach and authenticate to the other instances
   */
  public SeriesApi(
      final SeriesQueries queries,
      final Function<SeriesKey, SeriesOwner> owners,
      final QueryLimits limits,
      final String self,
      final PeerAccess peers) {
    this.queries = queries;
    this.owners = owners;
    this.limits = limits;
    this.self = self;
    this.forwarder = new QueryForwarder(self, limits.timeout(), peers);
  }

  @Override
  public HttpAnswer answer(final HttpCall call) {
    final HttpAnswer answer = answerFor(call);
    // A forwarded answer says which instance served it; any other was served here.
    return answer.headers().containsKey(QueryForwarder.SERVED_BY)
        ? answer
        : answer.with(QueryForwarder.SERVED_BY, self);
  }

  private HttpAnswer answerFor(final HttpCall call) {
    if (!"GET".equals(call.method())) {
      return HttpAnswer.error(405, "only GET is served here").with("Allow", "GET");
    }
    final String path = call.rawPath();
    try {
      final QueryParameters parameters = new QueryParameters(call.rawQuery());
      if (path.equals(PATH) || path.equals(PATH + "/")) {
        return listSeries(call.caller(), parameters);
      }
      return answerForSeries(call, path, parameters);
    } catch (IllegalArgumentException e) {
      return HttpAnswer.error(400, e.getMessage());
    } catch (InvalidStateStoreException e) {
      return HttpAnswer.error(503, "the series' state is moving between instances; retry")
          .with("Retry-After", "1");
    } catch (StoreUnavailableException e) {
      return HttpAnswer.error(503, e.getMessage()).with("Retry-After", "5");
    } catch (RuntimeException e) {
      // The client learns that it failed; the why, which may name classes, stays in the log.
      LOG.warn("query {} failed", path, e);
      return HttpAnswer.error(500, "the query failed; the processor's log says why");
    }
  }

  private HttpAnswer listSeries(final Caller caller, final QueryParameters parameters) {
    final int limit = parameters.integer("limit", 100, 1, MAX_SERIES_LISTED);
    final String prefix = parameters.text("prefix").orElse("");
    final List<String> prefixes = caller.narrow(prefix);
    final List<Map<String, Object>> series =
        (prefixes.isEmpty() ? List.<SeriesKey>of() : queries.series(prefixes, limit))
            .stream()
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
    return HttpAnswer.json(200, body);
  }

  private HttpAnswer answerForSeries(
      final HttpCall call, final String path, final QueryParameters parameters) {
    // /api/v1/series/{sensor_id}/{operation}; the id is percent-encoded, so it may hold a '/'.
    final int lastSlash = path.lastIndexOf('/');
    final String operation = path.substring(lastSlash + 1);
    if (!path.startsWith(PATH + "/")
        || lastSlash <= PATH.length() + 1
        || !(operation.equals("statistics") || operation.equals("buckets"))) {
      return HttpAnswer.error(404, "not found");
    }
    final String sensorId =
        QueryParameters.text("sensor id", path.substring(PATH.length() + 1, lastSlash));
    final SeriesKey series = new SeriesKey(sensorId, parameters.text("metric").orElse(null));
    if (!call.caller().maySee(sensorId)) {
      // Indistinguishable from a series that does not exist: the caller learns nothing of it.
      return HttpAnswer.error(404, "no buckets for series " + series);
    }
    final Instant from = parameters.instant("from");
    final Instant to = parameters.instant("to");
    checkRange(from, to);
    final Quantiles quantiles =
        parameters.optional("quantiles").map(Quantiles::parse).orElse(Quantiles.DEFAULT);
    final Chart chart = operation.equals("buckets") ? chart(parameters, from, to) : null;

    final SeriesOwner owner = owners.apply(series);
    if (owner instanceof SeriesOwner.Remote remote && !QueryForwarder.wasForwarded(call)) {
      return forwarder.forward(call, remote.host(), remote.port());
    } else if (owner instanceof SeriesOwner.Local local) {
      if (!queries.exists(series, local.windows())) {
        return HttpAnswer.error(404, "no buckets for series " + series);
      } else if (chart == null) {
        return HttpAnswer.json(200, statistics(series, from, to, quantiles, local.windows()));
      } else {
        return HttpAnswer.json(200, points(series, chart, from, to, quantiles, local.windows()));
      }
    }
    return HttpAnswer.error(
            503,
            owner instanceof SeriesOwner.Unavailable unavailable
                ? unavailable.reason()
                : "the instances disagree on who holds series " + series + "; retry")
        .with("Retry-After", "1");
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

  /** How a chart request is drawn: its points, and what fills the points without readings. */
  private record Chart(Resolution resolution, GapFill fill) {}

  /**
   * The granularity asked for, as it is; or, without one, the resolution picked for {@code
   * maxDataPoints} or {@code interval_ms}, widened to stay within {@code query.max.points}.
   */
  private Chart chart(final QueryParameters parameters, final Instant from, final Instant to) {
    final OptionalLong maxDataPoints = parameters.whole("maxDataPoints", 1, Integer.MAX_VALUE);
    final OptionalLong intervalMillis =
        parameters.whole("interval_ms", 1, limits.maxRange().toMillis());
    final GapFill fill = GapFill.parse(parameters.optional("fill").orElse("none"));
    if (parameters.optional("granularity").isPresent()) {
      return new Chart(chartGranularity(parameters, from, to), fill);
    }
    if (maxDataPoints.isEmpty() && intervalMillis.isEmpty()) {
      throw new IllegalArgumentException(
          "granularity is required, one of "
              + labels(queries.granularities())
              + ", unless maxDataPoints or interval_ms is given to pick one");
    }
    final long range = Duration.between(from, to).toMillis();
    return new Chart(
        Resolution.pick(
            queries.granularities(),
            from.toEpochMilli(),
            to.toEpochMilli(),
            Resolution.step(range, maxDataPoints, intervalMillis),
            limits.maxPoints()),
        fill);
  }

  private Resolution chartGranularity(
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
                        "granularity must be one of " + labels(queries.granularities())));
    final Resolution resolution =
        Resolution.of(granularity, from.toEpochMilli(), to.toEpochMilli());
    if (resolution.points() > limits.maxPoints()) {
      throw new IllegalArgumentException(
          "the range holds "
              + resolution.points()
              + " windows of "
              + label
              + ", over the limit of "
              + limits.maxPoints()
              + " (query.max.points): choose a coarser granularity or a shorter range");
    }
    return resolution;
  }

  private static List<String> labels(final List<Granularity> granularities) {
    return granularities.stream().map(Granularity::label).toList();
  }

  private Map<String, Object> statistics(
      final SeriesKey series,
      final Instant from,
      final Instant to,
      final Quantiles quantiles,
      final LiveWindows live) {
    return SeriesAnswers.statistics(
        series,
        from,
        to,
        quantiles,
        queries.statistics(series, from.toEpochMilli(), to.toEpochMilli(), live));
  }

  private Map<String, Object> points(
      final SeriesKey series,
      final Chart chart,
      final Instant from,
      final Instant to,
      final Quantiles quantiles,
      final LiveWindows live) {
    return SeriesAnswers.points(
        series,
        from,
        to,
        quantiles,
        queries.points(series, chart.resolution(), chart.fill(), live));
  }
}
