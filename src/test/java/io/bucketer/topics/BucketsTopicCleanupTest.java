package io.bucketer.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.topics.BucketsTopicCleanup.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BucketsTopicCleanupTest {

  private static final List<Granularity> GRANULARITIES = Granularity.parseList("1m,1h");
  private static final Duration MARGIN = Duration.ofSeconds(10).plus(Duration.ofHours(24));

  /** 1m=30d,1h=400d: the hour's 400 days, its hour, 10 s of grace and 24 h, rounded up: 9626 h. */
  private static final long BOUNDED_MS = Duration.ofHours(400 * 24 + 1 + 24 + 1).toMillis();

  private static BucketsTopicCleanup bounded() {
    return BucketsTopicCleanup.of(
        GRANULARITIES, Retention.parse("1m=30d,1h=400d", GRANULARITIES), MARGIN);
  }

  private static BucketsTopicCleanup forEver() {
    return BucketsTopicCleanup.of(GRANULARITIES, Retention.parse("1m=30d", GRANULARITIES), MARGIN);
  }

  @Test
  void shouldKeepBucketsAsLongAsTheLongestRetentionPlusItsWindowAndTheMargin() {
    assertThat(bounded().retention()).contains(Duration.ofMillis(BOUNDED_MS));
    assertThat(bounded().topicConfig())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "cleanup.policy", "compact,delete",
                "retention.ms", Long.toString(BOUNDED_MS),
                "retention.bytes", "-1"));
  }

  @Test
  void shouldRoundUpToAWholeHourNeverDown() {
    final List<Granularity> minute = Granularity.parseList("1m");
    final BucketsTopicCleanup cleanup =
        BucketsTopicCleanup.of(minute, Retention.parse("1m=1h", minute), Duration.ofSeconds(10));

    // 1 h + 1 min + 10 s needs a second hour.
    assertThat(cleanup.retention()).contains(Duration.ofHours(2));
  }

  @Test
  void shouldStayCompactedOnlyWhenAGranularityKeepsItsDocumentsForEver() {
    assertThat(forEver().retention()).isEmpty();
    assertThat(forEver().topicConfig())
        .containsExactlyEntriesOf(Map.of("cleanup.policy", "compact"));
    assertThat(BucketsTopicCleanup.of(GRANULARITIES, Retention.NONE, MARGIN).retention()).isEmpty();
  }

  @Test
  void shouldRefuseATopicWithoutCompaction() {
    final BucketsTopicCleanup.Verdict verdict = bounded().verdict("b", "delete", "604800000", "-1");

    assertThat(verdict.status()).isEqualTo(Status.WRONG);
    assertThat(verdict.line())
        .startsWith(
            "wrong topic configuration: b has cleanup.policy=delete, bucketer needs compact");
  }

  @Test
  void shouldRefuseARetentionShorterThanMongoDbsAndSayTheOneNeeded() {
    final BucketsTopicCleanup.Verdict verdict =
        bounded().verdict("b", "compact,delete", "604800000", "-1");

    assertThat(verdict.acceptable()).isFalse();
    assertThat(verdict.line())
        .contains(
            "b deletes buckets after retention.ms=604800000 (7d), before MongoDB deletes them")
        .contains(
            "cleanup.policy=[compact,delete],retention.ms=" + BOUNDED_MS + ",retention.bytes=-1");
  }

  @Test
  void shouldRefuseASizeLimitWhateverTheTime() {
    final BucketsTopicCleanup.Verdict verdict =
        bounded().verdict("b", "compact,delete", "-1", "1073741824");

    assertThat(verdict.status()).isEqualTo(Status.WRONG);
    assertThat(verdict.line()).contains("retention.bytes=1073741824");
  }

  @Test
  void shouldRefuseAnyTimeLimitWhenMongoDbKeepsAGranularityForEver() {
    final BucketsTopicCleanup.Verdict verdict =
        forEver().verdict("b", "compact,delete", Long.toString(BOUNDED_MS * 10), "-1");

    assertThat(verdict.status()).isEqualTo(Status.WRONG);
    assertThat(verdict.line())
        .contains("MongoDB keeps 1h documents for ever")
        .contains("set cleanup.policy=compact");
  }

  @Test
  void shouldAcceptARetentionAsLongOrLongerThanNeeded() {
    assertThat(bounded().verdict("b", "compact,delete", Long.toString(BOUNDED_MS), "-1").status())
        .isEqualTo(Status.RIGHT);
    assertThat(
            bounded().verdict("b", "delete,compact", Long.toString(BOUNDED_MS + 1), null).status())
        .isEqualTo(Status.RIGHT);
    assertThat(forEver().verdict("b", "compact", "604800000", "-1").status())
        .isEqualTo(Status.RIGHT);
    assertThat(forEver().verdict("b", "compact,delete", "-1", "-1").status())
        .isEqualTo(Status.RIGHT);
  }

  @Test
  void shouldAdviseBoundingACompactedTopicThatKeepsEverything() {
    final BucketsTopicCleanup.Verdict compactOnly =
        bounded().verdict("b", "compact", "604800000", "-1");
    final BucketsTopicCleanup.Verdict noTimeLimit =
        bounded().verdict("b", "compact,delete", "-1", "-1");

    for (final BucketsTopicCleanup.Verdict verdict : List.of(compactOnly, noTimeLimit)) {
      assertThat(verdict.status()).isEqualTo(Status.UNBOUNDED);
      assertThat(verdict.acceptable()).isTrue();
      assertThat(verdict.line()).contains("retention.ms=" + BOUNDED_MS);
    }
  }
}
