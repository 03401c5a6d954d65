package io.bucketer.ingest.sparkplug;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The metrics one BIRTH defined, for an edge node (NBIRTH) or one of its devices (DBIRTH): each
 * metric's name, alias and datatype, by which the DATA messages that follow are read; and the
 * birth's payload timestamp, which tells a device's birth of the node's current session from one of
 * an earlier session. Immutable.
 */
public final class SparkplugBirth {

  /** The timestamp of a birth whose payload has none. */
  public static final long NO_TIMESTAMP = -1L;

  /** What no BIRTH has defined yet. */
  public static final SparkplugBirth NONE = new SparkplugBirth(NO_TIMESTAMP, List.of());

  /**
   * One metric's definition.
   *
   * @param name the metric's name, which its readings take as their metric
   * @param alias its alias (a uint64 as a Java long), null when the birth gives it none
   * @param datatype its DataType number
   */
  public record Metric(String name, Long alias, int datatype) {
    public Metric {
      Objects.requireNonNull(name, "name");
    }
  }

  private final long timestamp;
  private final List<Metric> metrics;
  private final Map<Long, Metric> byAlias = new HashMap<>();
  private final Map<String, Metric> byName = new HashMap<>();

  /**
   * @param timestamp the birth payload's epoch milliseconds, {@link #NO_TIMESTAMP} when it has none
   * @throws IllegalArgumentException when two metrics share a name or an alias
   */
  public SparkplugBirth(final long timestamp, final List<Metric> metrics) {
    this.timestamp = timestamp < 0 ? NO_TIMESTAMP : timestamp;
    this.metrics = List.copyOf(metrics);
    for (final Metric metric : this.metrics) {
      if (byName.putIfAbsent(metric.name(), metric) != null) {
        throw new IllegalArgumentException("two metrics are named " + metric.name());
      }
      if (metric.alias() != null && byAlias.putIfAbsent(metric.alias(), metric) != null) {
        throw new IllegalArgumentException(
            "metrics "
                + byAlias.get(metric.alias()).name()
                + " and "
                + metric.name()
                + " share the alias "
                + Long.toUnsignedString(metric.alias()));
      }
    }
  }

  /**
   * The definitions of a BIRTH payload's metrics.
   *
   * @throws InvalidReadingException {@code sparkplug-bad-birth}: a metric without a name or a
   *     datatype, or two with one name or one alias
   */
  public static SparkplugBirth of(final SparkplugTopic topic, final SparkplugPayload birth)
      throws InvalidReadingException {
    final List<Metric> metrics = new ArrayList<>(birth.metrics().size());
    for (final SparkplugMetric metric : birth.metrics()) {
      if (metric.name() == null || metric.name().isEmpty()) {
        throw badBirth(topic, "metric " + metric.label() + " has no name");
      }
      if (metric.datatype() == 0) {
        throw badBirth(topic, "metric " + metric.name() + " has no datatype");
      }
      metrics.add(
          new Metric(metric.name(), metric.hasAlias() ? metric.alias() : null, metric.datatype()));
    }
    try {
      return new SparkplugBirth(birth.hasTimestamp() ? birth.timestamp() : NO_TIMESTAMP, metrics);
    } catch (IllegalArgumentException e) {
      throw badBirth(topic, e.getMessage());
    }
  }

  private static InvalidReadingException badBirth(final SparkplugTopic topic, final String why) {
    return new InvalidReadingException(Reason.SPARKPLUG_BAD_BIRTH, topic + ": " + why);
  }

  /** The birth payload's epoch milliseconds; {@link #NO_TIMESTAMP} when it had none. */
  public long timestamp() {
    return timestamp;
  }

  /**
   * Whether this device birth belongs to the session that a node birth at {@code nodeBirth}
   * started: sent at or after it. Kafka keeps order only within a partition, so a device's DBIRTH
   * can arrive before its node's NBIRTH when a bridge keys records by topic; a birth without a
   * timestamp, or a node birth without one, tells nothing, and counts as of an earlier session.
   */
  public boolean isOfSessionStartedAt(final long nodeBirth) {
    return timestamp != NO_TIMESTAMP && nodeBirth != NO_TIMESTAMP && timestamp >= nodeBirth;
  }

  /** The definitions, in the birth's order. */
  public List<Metric> metrics() {
    return metrics;
  }

  /** The metric this alias stands for; null when the birth defined no such alias. */
  public Metric byAlias(final long alias) {
    return byAlias.get(alias);
  }

  /** The metric of this name; null when the birth defined none. */
  public Metric byName(final String name) {
    return byName.get(name);
  }

  @Override
  public boolean equals(final Object other) {
    return other instanceof SparkplugBirth birth
        && birth.timestamp == timestamp
        && birth.metrics.equals(metrics);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(timestamp) * 31 + metrics.hashCode();
  }

  @Override
  public String toString() {
    return "SparkplugBirth@" + timestamp + metrics;
  }
}
