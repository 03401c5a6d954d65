package io.bucketer.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The known names nearest to a misspelt one, by Levenshtein distance (the fewest single-character
 * insertions, deletions and substitutions that turn one into the other), for "did you mean ...?".
 */
final class NearestNames {

  /** At most this many suggestions, all at the same, smallest distance. */
  private static final int MOST = 3;

  private NearestNames() {}

  /**
   * The known names nearest to {@code name}, nearest first; none when even the nearest differs in
   * more than a third of the name's characters (and at least 3), where a suggestion would be noise.
   */
  static List<String> to(final String name, final Collection<String> known) {
    final int limit = Math.max(3, name.length() / 3);
    final Map<String, Integer> distances =
        known.stream()
            .distinct()
            .collect(
                Collectors.toMap(candidate -> candidate, candidate -> distance(name, candidate)));
    final int nearest = distances.values().stream().min(Integer::compare).orElse(Integer.MAX_VALUE);
    if (nearest > limit) {
      return List.of();
    }
    return distances.entrySet().stream()
        .filter(entry -> entry.getValue() == nearest)
        .map(Map.Entry::getKey)
        .sorted(Comparator.naturalOrder())
        .limit(MOST)
        .toList();
  }

  /**
   * Levenshtein distance, the textbook two-row dynamic programme. Written here because Apache
   * commons-text's {@code LevenshteinDistance} is not on the classpath, and these lines do not
   * justify a dependency in the runtime image.
   */
  static int distance(final String a, final String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        final int substitution = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + substitution);
      }
      final int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
