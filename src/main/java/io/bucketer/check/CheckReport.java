package io.bucketer.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The lines of one {@code bucketer check}, as a table for a person or as JSON for a script. */
public record CheckReport(List<CheckResult> results) {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public CheckReport {
    results = List.copyOf(results);
  }

  /** True when every check passed: {@code check}'s exit code is 0 then. */
  public boolean passed() {
    return results.stream().allMatch(CheckResult::passed);
  }

  /** One row per check: ✓ or ✗, the dependency, the check, and what was found. */
  public String table() {
    final int dependencyWidth = width(results.stream().map(CheckResult::dependency).toList());
    final int checkWidth = width(results.stream().map(CheckResult::check).toList());
    final StringBuilder text = new StringBuilder();
    for (final CheckResult result : results) {
      text.append(result.passed() ? "✓ " : "✗ ")
          .append(pad(result.dependency(), dependencyWidth))
          .append("  ")
          .append(pad(result.check(), checkWidth))
          .append("  ")
          .append(result.detail())
          .append('\n');
    }
    final long failed = results.stream().filter(r -> !r.passed()).count();
    text.append(
        failed == 0
            ? "OK: every check passed.\n"
            : failed + " of " + results.size() + " checks failed.\n");
    return text.toString();
  }

  /** {@code {"passed": ..., "checks": [{"dependency", "check", "passed", "detail"}, ...]}}. */
  public String json() {
    final Map<String, Object> body = new LinkedHashMap<>();
    body.put("passed", passed());
    body.put("checks", results);
    try {
      return JSON.writeValueAsString(body) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("records of strings and booleans are always JSON", e);
    }
  }

  private static int width(final List<String> texts) {
    return texts.stream().mapToInt(String::length).max().orElse(0);
  }

  private static String pad(final String text, final int width) {
    return text + " ".repeat(width - text.length());
  }
}
