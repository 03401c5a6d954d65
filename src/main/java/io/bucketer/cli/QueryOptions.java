package io.bucketer.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.cli.QueryApi.Answer;
import io.bucketer.cli.QueryApi.UnreachableException;
import io.bucketer.cli.QueryRange.Interval;
import io.bucketer.query.Quantiles;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * What both query subcommands share: the series, the range, the processor's address, the form of
 * the output; and the call itself, its answer printed for a person or as the API's JSON.
 */
final class QueryOptions {

  /** Exit code for an error answer or an unreachable processor; picocli's 2 is for bad options. */
  static final int FAILED = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--sensor", required = true, paramLabel = "ID", description = "Sensor id.")
  String sensorId;

  @Option(
      names = "--metric",
      paramLabel = "NAME",
      description = "Metric; leave out for a sensor that sends none.")
  String metric;

  @ArgGroup(exclusive = true, multiplicity = "1")
  QueryRange range;

  @Option(
      names = "--url",
      defaultValue = "http://localhost:8080",
      paramLabel = "URL",
      description = {"The processor's HTTP address,", "default: ${DEFAULT-VALUE}."})
  URI url;

  @Option(
      names = "--quantiles",
      paramLabel = "LEVELS",
      description = {
        "Quantiles to answer, comma-separated numbers from 0 to 1: 0.5,0.95,0.999.",
        "Default: the API's p50, p90, p95 and p99 (query buckets: p50, p95 and p99)."
      })
  String quantiles;

  @Option(names = "--json", description = "Print the API's JSON answer as it is.")
  boolean json;

  @Mixin ApiClientOptions access = new ApiClientOptions();

  /**
   * Asks for {@code resource} of the series over the range and prints the answer: {@code readable}
   * turns a 200's JSON into text for a person, unless --json. Returns the exit code.
   */
  int ask(
      final CommandSpec spec,
      final String resource,
      final Map<String, String> moreParameters,
      final Function<JsonNode, String> readable) {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
        || url.getHost() == null) {
      throw new ParameterException(
          spec.commandLine(), "--url must be an http:// or https:// address, not " + url);
    }
    final Interval interval = range.resolve(Clock.systemUTC());
    final Map<String, String> parameters = new LinkedHashMap<>();
    if (metric != null) {
      parameters.put("metric", metric);
    }
    parameters.putAll(moreParameters);
    if (quantiles != null) {
      try {
        parameters.put("quantiles", Quantiles.parse(quantiles).parameter());
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
      }
    }
    parameters.put("from", interval.from().toString());
    parameters.put("to", interval.to().toString());
    final QueryApi api;
    try {
      api = new QueryApi(url, access.authorization(), access.tls());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    final Answer answer;
    try {
      answer = api.getSeries(sensorId, resource, parameters);
    } catch (UnreachableException e) {
      err.println("bucketer query: " + e.getMessage());
      err.flush();
      return FAILED;
    }
    if (!answer.ok()) {
      err.println("bucketer query: " + errorMessage(answer));
      err.flush();
      return FAILED;
    }
    if (json) {
      out.println(answer.body().strip());
      out.flush();
      return 0;
    }
    try {
      out.print(readable.apply(JSON.readTree(answer.body())));
      out.flush();
      return 0;
    } catch (JsonProcessingException | RuntimeException e) {
      err.println("bucketer query: " + url + " answered 200 with no query API answer in it");
      err.flush();
      return FAILED;
    }
  }

  /** The API's {"error": ...}; a body without one (not the API answering) shown as it is. */
  private static String errorMessage(final Answer answer) {
    final String message = apiError(answer.body()).orElseGet(() -> statusLine(answer));
    return answer.retryAfter().map(s -> message + " (retry after " + s + " s)").orElse(message);
  }

  private static Optional<String> apiError(final String body) {
    try {
      final JsonNode error = JSON.readTree(body).path("error");
      return error.isTextual() ? Optional.of(error.asText()) : Optional.empty();
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  private static String statusLine(final Answer answer) {
    final String firstLine = answer.body().strip().lines().findFirst().orElse("");
    return "HTTP " + answer.status() + (firstLine.isEmpty() ? "" : ": " + firstLine);
  }
}
