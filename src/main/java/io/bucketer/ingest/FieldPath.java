package io.bucketer.ingest;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a mapped field sits in an input record: its name, or for a field of a nested record the
 * names from the outermost record down, written dotted ({@code meta.deviceId}).
 *
 * @param segments the field names from the outermost record down; at least one, none empty
 */
public record FieldPath(List<String> segments) {

  private static final Pattern DOT = Pattern.compile("\\.");

  public FieldPath {
    segments = List.copyOf(segments);
    if (segments.isEmpty() || segments.stream().anyMatch(String::isBlank)) {
      throw new IllegalArgumentException(
          "a field path is names separated by dots, none empty: " + String.join(".", segments));
    }
  }

  /**
   * @throws IllegalArgumentException when {@code dotted} is empty or has an empty segment
   */
  public static FieldPath parse(final String dotted) {
    return new FieldPath(List.of(DOT.split(dotted.trim(), -1)));
  }

  /** The field's own name: what a value field's readings are labelled with as their metric. */
  public String name() {
    return segments.get(segments.size() - 1);
  }

  @Override
  public String toString() {
    return String.join(".", segments);
  }
}
