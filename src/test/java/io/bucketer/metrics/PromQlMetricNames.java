package io.bucketer.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The metric names a PromQL expression selects: {@code sum by (le) (rate(x_bucket[5m]))} selects
 * {@code x_bucket}; {@code sum}, {@code by}, {@code le}, {@code rate} and {@code 5m} are not
 * metrics.
 *
 * <p>Written here because no library does it for Java: Prometheus' parser is Go, and the one PromQL
 * parser for Java on Maven Central ({@code io.github.oatelauser:promql-core}) has had a single
 * release and has no users, which is not a dependency to trust a check to. The names are all the
 * check needs, and a tokenizer finds them without a grammar: a word is a metric name unless it is a
 * keyword (aggregations, set operators, modifiers), a function (followed by {@code (}), a label
 * (inside {@code {...}}, or in the list after {@code by}, {@code without}, {@code on}, {@code
 * ignoring}, {@code group_left}, {@code group_right}) or part of a number or a duration. Strings,
 * comments, ranges and subqueries ({@code [5m:1m]}) and Grafana's variables ({@code
 * $__rate_interval}) are skipped. A name given as a matcher, {@code {__name__="x"}} or Prometheus
 * 3's {@code {"x"}}, counts too. An expression whose brackets or strings do not close is refused
 * rather than read halfway.
 */
final class PromQlMetricNames {

  private static final Set<String> KEYWORDS =
      Set.of(
          // aggregation operators
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile",
          "limitk",
          "limit_ratio",
          // binary operators and modifiers
          "and",
          "or",
          "unless",
          "atan2",
          "bool",
          "offset",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          // numbers
          "inf",
          "nan");

  /** Keywords that may be followed by a parenthesised list of label names. */
  private static final Set<String> LABEL_LISTS =
      Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

  private final String expression;
  private final Set<String> names = new LinkedHashSet<>();
  private int at;

  private PromQlMetricNames(final String expression) {
    this.expression = expression;
  }

  /**
   * The metric names {@code expression} selects, in the order they first appear.
   *
   * @throws IllegalArgumentException when a string, a bracket or a brace does not close
   */
  static Set<String> of(final String expression) {
    final PromQlMetricNames reader = new PromQlMetricNames(expression);
    reader.read();
    return reader.names;
  }

  private void read() {
    while (at < expression.length()) {
      final char c = expression.charAt(at);
      if (Character.isWhitespace(c)) {
        at++;
      } else if (c == '#') {
        skipComment();
      } else if (isQuote(c)) {
        at = endOfString(at);
      } else if (c == '{') {
        readMatchers();
      } else if (c == '[') {
        // A range or a subquery: durations, a colon, perhaps a Grafana variable; never a name.
        at = closing(at, '[', ']') + 1;
      } else if (isDigit(c) || (c == '.' && at + 1 < expression.length() && isDigit(next()))) {
        skipNumber();
      } else if (c == '$') {
        skipVariable();
      } else if (isNameStart(c)) {
        readWord();
      } else {
        // Operators, parentheses, commas, '@'.
        at++;
      }
    }
  }

  private void readWord() {
    final int start = at;
    while (at < expression.length() && isNamePart(expression.charAt(at))) {
      at++;
    }
    final String word = expression.substring(start, at);
    final int following = skipWhitespace(at);
    final boolean opensParenthesis =
        following < expression.length() && expression.charAt(following) == '(';
    final String keyword = word.toLowerCase(Locale.ROOT);
    if (KEYWORDS.contains(keyword)) {
      if (LABEL_LISTS.contains(keyword) && opensParenthesis) {
        at = closing(following, '(', ')') + 1;
      }
    } else if (!opensParenthesis) {
      // Neither a keyword nor a function: a metric name (its matchers, if any, come next).
      names.add(word);
    }
  }

  /**
   * Reads {@code {...}}: label matchers, in which the only names are a {@code __name__="x"}
   * matcher's value and a quoted name standing alone (Prometheus 3's {@code {"x", job="y"}}).
   */
  private void readMatchers() {
    final int end = closing(at, '{', '}');
    final List<List<String>> matchers = new ArrayList<>();
    List<String> matcher = new ArrayList<>();
    at++;
    while (at < end) {
      final char c = expression.charAt(at);
      if (Character.isWhitespace(c)) {
        at++;
      } else if (c == ',') {
        matchers.add(matcher);
        matcher = new ArrayList<>();
        at++;
      } else if (isQuote(c)) {
        final int stringEnd = endOfString(at);
        matcher.add(expression.substring(at, stringEnd));
        at = stringEnd;
      } else if (c == '=' || c == '!' || c == '~') {
        final int start = at;
        while (at < end && "=!~".indexOf(expression.charAt(at)) >= 0) {
          at++;
        }
        matcher.add(expression.substring(start, at));
      } else {
        final int start = at;
        while (at < end
            && !Character.isWhitespace(expression.charAt(at))
            && ",=!~".indexOf(expression.charAt(at)) < 0
            && !isQuote(expression.charAt(at))) {
          at++;
        }
        matcher.add(expression.substring(start, at));
      }
    }
    matchers.add(matcher);
    at = end + 1;
    for (final List<String> tokens : matchers) {
      if (tokens.size() == 1 && isQuote(tokens.get(0).charAt(0))) {
        names.add(unquote(tokens.get(0)));
      } else if (tokens.size() == 3
          && unquote(tokens.get(0)).equals("__name__")
          && tokens.get(1).equals("=")) {
        names.add(unquote(tokens.get(2)));
      }
    }
  }

  private void skipNumber() {
    // Integers, floats, hex, exponents and durations (5m, 1h30m): digits, letters and '.', and a
    // sign right after a decimal number's exponent 'e' (1e-3).
    final boolean hex = expression.regionMatches(true, at, "0x", 0, 2);
    at++;
    while (at < expression.length()) {
      final char c = expression.charAt(at);
      final boolean exponentSign =
          (c == '+' || c == '-') && !hex && Character.toLowerCase(expression.charAt(at - 1)) == 'e';
      if (Character.isLetterOrDigit(c) || c == '.' || exponentSign) {
        at++;
      } else {
        return;
      }
    }
  }

  /** Grafana's {@code $name}, {@code ${name}} and {@code ${name:format}}. */
  private void skipVariable() {
    at++;
    if (at < expression.length() && expression.charAt(at) == '{') {
      at = closing(at, '{', '}') + 1;
      return;
    }
    while (at < expression.length() && isNamePart(expression.charAt(at))) {
      at++;
    }
  }

  private void skipComment() {
    while (at < expression.length() && expression.charAt(at) != '\n') {
      at++;
    }
  }

  /** The index of the bracket that closes the one at {@code open}, skipping strings. */
  private int closing(final int open, final char opening, final char closingBracket) {
    int depth = 0;
    int i = open;
    while (i < expression.length()) {
      final char c = expression.charAt(i);
      if (isQuote(c)) {
        i = endOfString(i);
        continue;
      }
      if (c == opening) {
        depth++;
      } else if (c == closingBracket) {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
      i++;
    }
    throw new IllegalArgumentException(
        "'" + opening + "' at " + open + " does not close in: " + expression);
  }

  /**
   * The index just past the string that starts at {@code open}; backquoted ones have no escapes.
   */
  private int endOfString(final int open) {
    final char quote = expression.charAt(open);
    int i = open + 1;
    while (i < expression.length()) {
      final char c = expression.charAt(i);
      if (c == '\\' && quote != '`') {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else {
        i++;
      }
    }
    throw new IllegalArgumentException(
        "the string at " + open + " does not close in: " + expression);
  }

  private int skipWhitespace(final int from) {
    int i = from;
    while (i < expression.length() && Character.isWhitespace(expression.charAt(i))) {
      i++;
    }
    return i;
  }

  private char next() {
    return expression.charAt(at + 1);
  }

  private static String unquote(final String token) {
    return isQuote(token.charAt(0)) ? token.substring(1, token.length() - 1) : token;
  }

  private static boolean isQuote(final char c) {
    return c == '"' || c == '\'' || c == '`';
  }

  private static boolean isDigit(final char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isNameStart(final char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  }

  private static boolean isNamePart(final char c) {
    return isNameStart(c) || isDigit(c);
  }
}
