package io.bucketer.metrics;

import io.bucketer.tenants.TenantSeriesCounts;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * bucketer's own meters, in one place so that their names and tags stay consistent: what happened
 * to each reading, and why records were dead-lettered. What each one means is in {@link
 * MeterDescriptions}. Counters are created on first use and cached, so counting stays cheap on the
 * hot path.
 */
public final class BucketerMetrics {

  public static final String READINGS = "bucketer.readings";
  public static final String DEAD_LETTERS = "bucketer.dead.letters";
  public static final String OPEN_BUCKETS = "bucketer.open.buckets";
  public static final String READINGS_HELD = "bucketer.readings.held";
  public static final String STREAM_THREAD_RESTARTS = "bucketer.stream.thread.restarts";
  public static final String PROCESS_STALLS = "bucketer.process.stalls";
  public static final String BUCKETS_EMITTED = "bucketer.buckets.emitted";
  public static final String STATE_WIPES = "bucketer.state.wipes";
  public static final String STATE_OPERATIONS = "bucketer.state.operations";
  public static final String SENML_SKIPPED_VALUES = "bucketer.senml.skipped.values";
  public static final String SPARKPLUG_MESSAGES = "bucketer.sparkplug.messages";
  public static final String SPARKPLUG_SEQ_GAPS = "bucketer.sparkplug.seq.gaps";
  public static final String SPARKPLUG_METRICS_SKIPPED = "bucketer.sparkplug.metrics.skipped";
  public static final String QUERY_MALFORMED_SKETCHES = "bucketer.query.malformed.sketches";
  public static final String HTTP_AUTH_FAILURES = "bucketer.http.auth.failures";
  public static final String TENANT_SERIES_ACTIVE = "bucketer.tenant.series.active";
  public static final String TENANT_SERIES_HEADROOM = "bucketer.tenant.series.headroom";
  public static final String TENANT_SERIES_LIMIT = "bucketer.tenant.series.limit";
  public static final String TENANT_SERIES_REFUSED = "bucketer.tenant.series.refused";

  /** An operation of the window lifecycle on its task's state stores. */
  public enum StateOperation {
    GET("get"),
    PUT("put"),
    DELETE("delete"),
    /** A range or prefix read, one per iterator opened. */
    RANGE("range");

    private final String tag;

    StateOperation(final String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  /** What became of a reading that was decoded. */
  public enum ReadingOutcome {
    /** Added to its open buckets. */
    ON_TIME("on-time"),
    /** Arrived after its window closed but within the lateness horizon: merged, re-written. */
    LATE_MERGED("late-merged"),
    /** Arrived beyond the lateness horizon: dead-lettered. */
    TOO_LATE("too-late"),
    /** Its series already held a reading with its time and value: a resend, counted once. */
    RESENT("resent"),
    /** Its series held a reading at its time with another value, which it replaced (keep-last). */
    REPLACED("replaced"),
    /** Its series held a reading at its time with another value, which stayed (keep-first). */
    KEPT_FIRST("kept-first"),
    /** Its series held no state, and its tenant's series limit refused it any: dead-lettered. */
    SERIES_LIMIT("series-limit"),
    /** The other deployment's, while a rescale hands over (see Handover): not taken here. */
    HANDED_OVER("handed-over");

    private final String tag;

    ReadingOutcome(final String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  private final MeterRegistry registry;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final AtomicLong openBuckets = new AtomicLong();
  private final AtomicLong readingsHeld = new AtomicLong();
  private final Map<StateOperation, Counter> stateOperations = new EnumMap<>(StateOperation.class);
  // Counted for every reading: looked up in an enum map, not by a name built each time.
  private final Map<ReadingOutcome, Counter> readings = new EnumMap<>(ReadingOutcome.class);
  private final Counter malformedSketches;

  public BucketerMetrics(final MeterRegistry registry) {
    this.registry = registry;
    registry.gauge(OPEN_BUCKETS, openBuckets);
    registry.gauge(READINGS_HELD, readingsHeld);
    // Exported at zero (see countDeadLettersFromZero): the first one is news to an operator.
    malformedSketches = registry.counter(QUERY_MALFORMED_SKETCHES);
    for (final StateOperation operation : StateOperation.values()) {
      stateOperations.put(operation, counter(STATE_OPERATIONS, "operation", operation.tag));
    }
    for (final ReadingOutcome outcome : ReadingOutcome.values()) {
      readings.put(outcome, counter(READINGS, "outcome", outcome.tag));
    }
  }

  public MeterRegistry registry() {
    return registry;
  }

  public void reading(final ReadingOutcome outcome) {
    readings.get(outcome).increment();
  }

  public void deadLetter(final String reason) {
    counter(DEAD_LETTERS, "reason", reason).increment();
  }

  /**
   * Exports the dead letters of {@code reason} at zero before the first one. Prometheus sees the
   * first increment of a counter only if it scraped the counter before: one that appears at 1 has
   * no earlier sample, and {@code increase()} and {@code rate()} read it as no change. For a reason
   * whose first occurrence alone must alert (a bucket MongoDB rejected).
   */
  public void countDeadLettersFromZero(final String reason) {
    counter(DEAD_LETTERS, "reason", reason);
  }

  /**
   * The topology closed a bucket document of {@code granularity} (a revision of a late-merged
   * window counts again) and forwarded it to the buckets topic. Counted when forwarded: a
   * transaction aborted afterwards counts its buckets twice.
   */
  public void bucketEmitted(final String granularity) {
    counter(BUCKETS_EMITTED, "granularity", granularity).increment();
  }

  /**
   * A stream thread failed with a transient {@code cause} and was replaced; it resumes from its
   * last commit. Counted so that an outage of a dependency shows as more than a log line.
   */
  public void streamThreadRestarted(final String cause) {
    counter(STREAM_THREAD_RESTARTS, "cause", cause).increment();
  }

  /** A stall of the whole process that outlived {@code outlived} (a Kafka timeout, or nothing). */
  public void processStalled(final String outlived) {
    counter(PROCESS_STALLS, "outlived", outlived).increment();
  }

  /** Exports the stalls of each of {@code outlived} at zero, so that the first shows as one. */
  public void countProcessStallsFromZero(final List<String> outlived) {
    outlived.forEach(tag -> counter(PROCESS_STALLS, "outlived", tag));
  }

  /**
   * Exports the restarts of {@code cause} at zero before the first one, so that the first restart
   * shows as an increase (see {@link #countDeadLettersFromZero}).
   */
  public void countStreamThreadRestartsFromZero(final String cause) {
    counter(STREAM_THREAD_RESTARTS, "cause", cause);
  }

  /**
   * The local state was wiped before Kafka Streams started, for {@code cause}: it belonged to
   * another cluster or to other topics (see {@code io.bucketer.state.LocalStateGuard}).
   */
  public void stateWiped(final String cause) {
    counter(STATE_WIPES, "cause", cause).increment();
  }

  /**
   * Windows opened (positive) or closed (negative) by one task. Each task reports its own changes,
   * and its remaining open windows when it is closed, so the gauge is this instance's total.
   */
  public void openBucketsChanged(final long delta) {
    openBuckets.addAndGet(delta);
  }

  /**
   * Readings held before their apply ({@code readings.hold}) by one task, taken in (positive) or
   * applied or forgotten (negative): the gauge is this instance's total, readings its input offsets
   * have passed that no window has taken yet.
   */
  public void readingsHeldChanged(final long delta) {
    readingsHeld.addAndGet(delta);
  }

  /**
   * The aggregator asked its state stores for one {@code operation}: what its window cache did not
   * absorb, so a put is one RocksDB put and one changelog record.
   */
  public void stateOperation(final StateOperation operation) {
    stateOperations.get(operation).increment();
  }

  /**
   * A SenML pack carried a value that is not a number ({@code kind}: string, boolean or data),
   * which gives no reading; valid SenML, so counted rather than dead-lettered.
   */
  public void senmlValueSkipped(final String kind) {
    counter(SENML_SKIPPED_VALUES, "kind", kind).increment();
  }

  /**
   * A Sparkplug B message of {@code type} (NBIRTH, NDATA, NDEATH, ..., NCMD, DCMD, STATE) was read
   * from the input, whatever became of it: deaths and host applications' messages are counted here
   * and go no further.
   */
  public void sparkplugMessage(final String type) {
    counter(SPARKPLUG_MESSAGES, "type", type).increment();
  }

  /**
   * A Sparkplug B edge node's message did not carry the sequence number after its last one:
   * messages were lost (or reordered) upstream. One series per edge node ({@code group/edge}).
   */
  public void sparkplugSeqGap(final String edgeNode) {
    counter(SPARKPLUG_SEQ_GAPS, "edge_node", edgeNode).increment();
  }

  /**
   * Metrics of taken Sparkplug B DATA messages that gave no reading: {@code reason} null, boolean
   * (unless input.sparkplug.booleans) or not-numeric.
   */
  public void sparkplugMetricsSkipped(final String reason, final int count) {
    counter(SPARKPLUG_METRICS_SKIPPED, "reason", reason).increment(count);
  }

  /**
   * The query API read a stored quantile sketch that does not decode and answered its window
   * without quantiles. No tags: what was wrong with it is in the log, once.
   */
  public void malformedSketchRead() {
    malformedSketches.increment();
  }

  /**
   * Exports each tenant's series in this process: held, the headroom its tasks' shares leave, the
   * deployment's limit, and the readings each limit refused (from zero, so that the first refusal
   * shows as an increase).
   */
  public void tenantSeries(final TenantSeriesCounts counts) {
    for (final TenantSeriesCounts.Counts tenant : counts.all()) {
      final String name = tenant.tenant().name();
      Gauge.builder(TENANT_SERIES_ACTIVE, tenant, TenantSeriesCounts.Counts::active)
          .tag("tenant", name)
          .register(registry);
      Gauge.builder(TENANT_SERIES_HEADROOM, tenant, TenantSeriesCounts.Counts::headroom)
          .tag("tenant", name)
          .register(registry);
      Gauge.builder(TENANT_SERIES_LIMIT, tenant, t -> t.tenant().limits().activeSeries())
          .tag("tenant", name)
          .register(registry);
      for (final TenantSeriesCounts.Limit limit : TenantSeriesCounts.Limit.values()) {
        FunctionCounter.builder(TENANT_SERIES_REFUSED, tenant, t -> t.refused(limit))
            .tag("tenant", name)
            .tag("limit", limit.tag())
            .register(registry);
      }
    }
  }

  private Counter counter(final String name, final String tag, final String value) {
    return counters.computeIfAbsent(
        name + '\u0000' + value, key -> registry.counter(name, tag, value));
  }
}
