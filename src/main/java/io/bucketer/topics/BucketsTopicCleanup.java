package io.bucketer.topics;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;

/**
 * How the buckets topic must be cleaned so that it holds every bucket MongoDB still keeps, and no
 * more for long: what {@code run} creates it with and what it and {@code check} require of an
 * existing one. The topic is then the source {@code bucketer resink} rebuilds MongoDB from, for as
 * long as the deployment runs.
 *
 * <p>Compaction keeps the last revision of each bucket; alone, it still keeps every window ever
 * closed. So when every granularity has a retention, the topic is {@code compact,delete}: Kafka
 * deletes a segment once its newest record is older than {@code retention.ms}. That is at least the
 * longest time MongoDB keeps a document after its window's end, plus the window's size, plus a
 * margin:
 *
 * <ul>
 *   <li>MongoDB's TTL deletes a document at its window's end plus the retention ({@link
 *       Retention}); Kafka deletes a record at its timestamp plus {@code retention.ms}, never
 *       earlier (a segment goes only once its newest record is that old).
 *   <li>A bucket record's timestamp is the time of the reading that closed its window (after the
 *       end), of the late reading that reopened it (within the window, so after its start), or the
 *       wall clock of an idle close: never before the window's start. Adding the window's size
 *       covers the difference between its start and its end.
 *   <li>The margin, the grace and the lateness horizon, is not needed by that reckoning: it absorbs
 *       the skew between the broker's and MongoDB's clocks and a topic that stamps records with
 *       their append time; a day or so more of a topic that keeps weeks costs little. The sum is
 *       rounded up to a whole hour.
 * </ul>
 *
 * <p>When some granularity keeps its documents for ever, so must the topic: it stays {@code
 * compact} only (no time or size limit applies then). Size-based retention ({@code
 * retention.bytes}) is never wanted: it would delete buckets by how much the topic holds, not by
 * their age.
 *
 * <p>An existing topic is not changed by bucketer (that would need ALTER_CONFIGS, which the
 * README's ACLs do not grant, and topics are often managed elsewhere): {@link #verdict} says what
 * is wrong with it and the change that fixes it.
 */
public final class BucketsTopicCleanup {

  /** What an existing topic's configuration means for the buckets MongoDB keeps. */
  public enum Status {
    /** It keeps every bucket MongoDB keeps, and deletes the others in time. */
    RIGHT,
    /** It keeps every bucket MongoDB keeps, and the others too, without bound. */
    UNBOUNDED,
    /** It is not compacted, or deletes buckets MongoDB still keeps. */
    WRONG
  }

  /** The status of an existing topic, and in one line what it is and what to change. */
  public record Verdict(Status status, String line) {

    /** Not wrong: bucketer and resink work with it. */
    public boolean acceptable() {
      return status != Status.WRONG;
    }
  }

  private static final long HOUR_MILLIS = 3_600_000L;

  private final Optional<Duration> retention;
  private final String keptForEver;

  private BucketsTopicCleanup(final Optional<Duration> retention, final String keptForEver) {
    this.retention = retention;
    this.keptForEver = keptForEver;
  }

  /**
   * The cleanup the buckets topic needs for these granularities and their retention.
   *
   * @param margin added to the longest retention: the grace plus the lateness horizon
   */
  public static BucketsTopicCleanup of(
      final List<Granularity> granularities, final Retention retention, final Duration margin) {
    Duration longest = Duration.ZERO;
    for (final Granularity granularity : granularities) {
      final Optional<Duration> kept = retention.of(granularity);
      if (kept.isEmpty()) {
        return new BucketsTopicCleanup(Optional.empty(), granularity.label());
      }
      final Duration needed = kept.get().plusMillis(granularity.sizeMillis());
      longest = needed.compareTo(longest) > 0 ? needed : longest;
    }
    // Rounded up to a whole hour: a figure an operator can read and compare, never shorter.
    final long hours = -Math.floorDiv(-longest.plus(margin).toMillis(), HOUR_MILLIS);
    return new BucketsTopicCleanup(Optional.of(Duration.ofHours(hours)), "");
  }

  /** How long the topic must keep a record; empty: for ever (compaction only). */
  public Optional<Duration> retention() {
    return retention;
  }

  /** The configuration a new buckets topic is created with. */
  public Map<String, String> topicConfig() {
    final Map<String, String> config = new LinkedHashMap<>();
    if (retention.isEmpty()) {
      config.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
      return config;
    }
    config.put(
        TopicConfig.CLEANUP_POLICY_CONFIG,
        TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE);
    config.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.get().toMillis()));
    // Explicit, whatever the broker's log.retention.bytes: a size limit would delete by volume.
    config.put(TopicConfig.RETENTION_BYTES_CONFIG, "-1");
    return config;
  }

  /**
   * What an existing topic with this {@code cleanup.policy}, {@code retention.ms} and {@code
   * retention.bytes} (null when not described) means for the buckets: not acceptable when it is not
   * compacted or would delete buckets MongoDB still keeps; acceptable, with advice, when it keeps
   * them longer than needed, without bound. Each line names the topic and the change to make.
   */
  public Verdict verdict(
      final String topic,
      final String policy,
      final String retentionMs,
      final String retentionBytes) {
    final List<String> policies =
        List.of(policy.replace("[", "").replace("]", "").replace(" ", "").split(","));
    if (!policies.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
      return new Verdict(
          Status.WRONG,
          "wrong topic configuration: "
              + topic
              + " has cleanup.policy="
              + policy
              + ", bucketer needs compact (a bucket's later revision replaces the earlier; without"
              + " it the topic grows with every revision and its retention deletes closed buckets)");
    }
    if (!policies.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
      return retention
          .map(
              wanted ->
                  new Verdict(
                      Status.UNBOUNDED,
                      topic
                          + ": compacted, kept without bound; to keep only what MongoDB keeps, set "
                          + wantedChange()))
          .orElseGet(() -> new Verdict(Status.RIGHT, topic + ": compacted" + forEver()));
    }
    final long bytes = parse(retentionBytes, -1);
    if (bytes >= 0) {
      return new Verdict(
          Status.WRONG,
          "wrong topic configuration: "
              + topic
              + " has retention.bytes="
              + bytes
              + ", which deletes buckets by the topic's size, MongoDB's still kept ones too: set "
              + wantedChange());
    }
    final long millis = parse(retentionMs, -1);
    if (millis < 0) {
      return retention.isEmpty()
          ? new Verdict(Status.RIGHT, topic + ": compacted, no time limit" + forEver())
          : new Verdict(
              Status.UNBOUNDED,
              topic
                  + ": compacted, retention.ms=-1 keeps it without bound; to keep only what MongoDB"
                  + " keeps, set "
                  + wantedChange());
    }
    if (retention.isEmpty()) {
      return new Verdict(
          Status.WRONG,
          "wrong topic configuration: "
              + topic
              + " deletes buckets after retention.ms="
              + millis
              + " ("
              + TimeSpans.format(millis)
              + "), but MongoDB keeps "
              + keptForEver
              + " documents for ever: set "
              + wantedChange());
    }
    if (millis < retention.get().toMillis()) {
      return new Verdict(
          Status.WRONG,
          "wrong topic configuration: "
              + topic
              + " deletes buckets after retention.ms="
              + millis
              + " ("
              + TimeSpans.format(millis)
              + "), before MongoDB deletes them: set "
              + wantedChange());
    }
    return new Verdict(
        Status.RIGHT,
        topic
            + ": compacted, keeps buckets "
            + TimeSpans.format(millis)
            + " (MongoDB's retention needs "
            + TimeSpans.format(retention.get().toMillis())
            + ")");
  }

  /** The change that makes an existing topic right, as kafka-configs --add-config takes it. */
  public String wantedChange() {
    if (retention.isEmpty()) {
      return "cleanup.policy=compact (kafka-configs --alter --add-config), as "
          + keptForEver
          + " has no retention";
    }
    return "cleanup.policy=[compact,delete],retention.ms="
        + retention.get().toMillis()
        + ",retention.bytes=-1 (kafka-configs --alter --add-config; "
        + TimeSpans.format(retention.get().toMillis())
        + ": the longest retention, plus its window, grace and lateness horizon)";
  }

  private String forEver() {
    return retention.isEmpty() ? ", kept for ever as MongoDB keeps " + keptForEver : "";
  }

  private static long parse(final String value, final long otherwise) {
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }
}
