package io.bucketer.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What each of bucketer's meters counts or measures, its unit and what its labels mean: the HELP
 * line Prometheus and Grafana show beside it, and the rows of docs/operations.md's meter table
 * ({@link #markdownRows}), written once here so the two cannot drift. {@link #applyTo} gives every
 * {@code bucketer.*} meter its description as it registers, wherever in the code that happens, so
 * the code that registers a meter gives it none of its own.
 */
public final class MeterDescriptions {

  /** How Prometheus shows a meter: its family's name, from the meter's name and kind. */
  enum Kind {
    COUNTER("counter", "_total"),
    GAUGE("gauge", ""),
    /** A Micrometer timer: a histogram in seconds, with a {@code _max} gauge beside it. */
    TIMER("histogram", "_seconds"),
    /** A Micrometer distribution summary, in the unit its meter names. */
    SUMMARY("summary", "");

    private final String prometheusType;
    private final String suffix;

    Kind(final String prometheusType, final String suffix) {
      this.prometheusType = prometheusType;
      this.suffix = suffix;
    }

    /** The type on the family's {@code # TYPE} line. */
    String prometheusType() {
      return prometheusType;
    }
  }

  /**
   * One meter: its Micrometer name, its kind, its labels, what it says about itself, and the unit a
   * distribution summary names (null for the others).
   */
  record Family(String name, Kind kind, List<String> labels, String help, String unit) {

    /** The name Prometheus shows: dots become underscores, with the unit and the kind's suffix. */
    String prometheusName() {
      return name.replace('.', '_') + (unit == null ? "" : "_" + unit) + kind.suffix;
    }
  }

  private static final Map<String, Family> FAMILIES = new LinkedHashMap<>();

  static {
    family(
        BucketerMetrics.READINGS,
        Kind.COUNTER,
        List.of("outcome"),
        "Readings decoded from the input, by what became of each. outcome: on-time (added to"
            + " its open windows), late-merged (merged into a closed window, which is written"
            + " again), too-late (past the lateness horizon: dead-lettered), resent (the same time"
            + " and value again: counted once), replaced or kept-first (another value at a time"
            + " its series held: duplicate.timestamps keeps the last or the first), series-limit"
            + " (a new series its tenant's series limit refused: dead-lettered), handed-over"
            + " (during a rescale, the other deployment's side of the handover: bucketed there).");
    family(
        BucketerMetrics.DEAD_LETTERS,
        Kind.COUNTER,
        List.of("reason"),
        "Records sent to the dead-letter topic. reason: why, as in the record's"
            + " bucketer.dlq.reason header (malformed-json, too-late, wrong-partition, ...).");
    family(
        BucketerMetrics.TENANT_SERIES_ACTIVE,
        Kind.GAUGE,
        List.of("tenant"),
        "Series this instance holds state for, by tenant (series.limit.tenants' prefix, * for"
            + " the rest): a series counts until it has been silent for the lateness horizon.");
    family(
        BucketerMetrics.TENANT_SERIES_HEADROOM,
        Kind.GAUGE,
        List.of("tenant"),
        "Series the tenant may still start on this instance: the shares of its active-series"
            + " limit that this instance's tasks hold, less the series they hold. Summed over the"
            + " instances, the tenant's headroom.");
    family(
        BucketerMetrics.TENANT_SERIES_LIMIT,
        Kind.GAUGE,
        List.of("tenant"),
        "The tenant's active-series limit across the deployment, as configured.");
    family(
        BucketerMetrics.TENANT_SERIES_REFUSED,
        Kind.COUNTER,
        List.of("tenant", "limit"),
        "Readings of new series a tenant's series limit refused (dead-lettered, reason"
            + " series-limit). limit: active-series or new-series-per-minute.");
    family(
        BucketerMetrics.SENML_SKIPPED_VALUES,
        Kind.COUNTER,
        List.of("kind"),
        "Values of SenML packs that are not numbers and so give no reading (valid SenML: not"
            + " dead-lettered). kind: string, boolean or data.");
    family(
        BucketerMetrics.BUCKETS_EMITTED,
        Kind.COUNTER,
        List.of("granularity"),
        "Bucket documents the topology closed and sent to the buckets topic, revisions of"
            + " late-merged windows included. granularity: the window's, as configured (1m, 1h,"
            + " ...).");
    family(
        SinkMeters.BUCKETS_WRITTEN,
        Kind.COUNTER,
        List.of("granularity"),
        "Bucket documents MongoDB acknowledged, redeliveries included. granularity: the"
            + " window's, as configured.");
    family(
        SinkMeters.WRITE_LATENCY,
        Kind.TIMER,
        List.of("outcome"),
        "Time of one bulk write of a batch of buckets to MongoDB, in seconds. outcome: success,"
            + " retryable (unreachable or slow: written again), rejected (its rejected documents"
            + " dead-lettered) or error.");
    FAMILIES.put(
        SinkMeters.BATCH_SIZE,
        new Family(
            SinkMeters.BATCH_SIZE,
            Kind.SUMMARY,
            List.of(),
            "Buckets per batch the sink polled from the buckets topic and wrote to MongoDB.",
            SinkMeters.BATCH_SIZE_UNIT));
    family(
        SinkMeters.PENDING,
        Kind.GAUGE,
        List.of(),
        "Buckets the sink polled and MongoDB has not acknowledged yet; it stays up while MongoDB"
            + " is away.");
    family(
        SinkMeters.RETRIES,
        Kind.COUNTER,
        List.of(),
        "Writes to MongoDB (of a batch, or of the indexes) that failed and will be tried again.");
    family(
        SinkMeters.LAG,
        Kind.GAUGE,
        List.of(),
        "Closed buckets in the buckets topic this instance's sink has not read yet, over its"
            + " partitions, as of its last poll: its backlog, before any of it is pending.");
    family(
        SinkMeters.CLOSE_TO_VISIBLE,
        Kind.TIMER,
        List.of(),
        "Time from a window's close in the topology to MongoDB's acknowledgement of its bucket"
            + " document, in seconds, on the processors' wall clocks.");
    family(
        BucketerMetrics.STREAM_THREAD_RESTARTS,
        Kind.COUNTER,
        List.of("cause"),
        "Restarts of stream threads, which resume from their last commit. cause:"
            + " schema-registry-unavailable (a thread failed on a registry outage and was"
            + " replaced), transaction-aborted (a thread found at its commit that the broker had"
            + " aborted its transaction after a stall, and was replaced) or fencing-loop (Kafka"
            + " Streams restarted with twice the transaction timeout, to break a loop of aborted"
            + " transactions).");
    family(
        BucketerMetrics.PROCESS_STALLS,
        Kind.COUNTER,
        List.of("outlived"),
        "Stalls of the whole process of 2 s or more (a collector pause, a starved machine, a"
            + " paused container), noticed from the gap they leave in a watch thread's ticks."
            + " outlived: nothing, transaction-timeout (its stream threads are fenced and restore"
            + " their state) or session-timeout (evicted from the group as well).");
    family(
        ReadinessGauge.READY,
        Kind.GAUGE,
        List.of(),
        "1 while /ready answers 200 (the processor can do its work), else 0; checked every 5"
            + " seconds.");
    family(
        BucketerMetrics.OPEN_BUCKETS,
        Kind.GAUGE,
        List.of(),
        "Windows open on this instance, all granularities (a coarser window opens when the first"
            + " finer one closes into it).");
    family(
        BucketerMetrics.READINGS_HELD,
        Kind.GAUGE,
        List.of(),
        "Readings this instance's tasks hold before they apply them to their windows"
            + " (`readings.hold`): past the input's committed offsets, logged, in no window yet."
            + " About the hold times the readings a second at live traffic (500,000 for 100,000"
            + " sensors at 1 Hz and 5 s); near 0 with `readings.hold=0s` or under a backlog,"
            + " whose readings are applied at each commit.");
    family(
        BucketerMetrics.STATE_WIPES,
        Kind.COUNTER,
        List.of("cause"),
        "Starts that wiped the local state before processing: it belonged to another cluster or"
            + " other topics. cause: other-cluster, other-input-topic, topic-missing or"
            + " no-marker.");
    family(
        BucketerMetrics.STATE_OPERATIONS,
        Kind.COUNTER,
        List.of("operation"),
        "Operations that reached the window state stores behind the aggregator's cache (a put is"
            + " one RocksDB put and one change in the window log's entry for its commit). operation:"
            + " get, put, delete or range (one per iterator).");
    family(
        BucketerMetrics.SPARKPLUG_MESSAGES,
        Kind.COUNTER,
        List.of("type"),
        "Sparkplug B messages read from the input, whatever became of them. type: the message"
            + " type (NBIRTH, NDATA, DDATA, NDEATH, DDEATH, NCMD, DCMD, STATE, ...).");
    family(
        BucketerMetrics.SPARKPLUG_SEQ_GAPS,
        Kind.COUNTER,
        List.of("edge_node"),
        "Sparkplug B messages whose sequence number did not follow their edge node's last one:"
            + " messages lost or reordered upstream. edge_node: group/edge.");
    family(
        BucketerMetrics.SPARKPLUG_METRICS_SKIPPED,
        Kind.COUNTER,
        List.of("reason"),
        "Metrics of Sparkplug B data messages that gave no reading. reason: null, boolean (unless"
            + " input.sparkplug.booleans) or not-numeric.");
    family(
        BucketerMetrics.HTTP_AUTH_FAILURES,
        Kind.COUNTER,
        List.of("reason"),
        "Requests to the data API or /metrics that the access gate refused. reason: missing (no"
            + " credentials) or invalid (wrong ones).");
    family(
        BucketerMetrics.QUERY_MALFORMED_SKETCHES,
        Kind.COUNTER,
        List.of(),
        "Stored quantile sketches the query API read that do not decode; their windows are"
            + " answered without quantiles, and the log names what was wrong with the first.");
  }

  private MeterDescriptions() {}

  private static void family(
      final String name, final Kind kind, final List<String> labels, final String help) {
    FAMILIES.put(name, new Family(name, kind, labels, help, null));
  }

  /**
   * Gives each {@code bucketer.*} meter registered on {@code registry} from now on its description.
   * Call it before anything registers a meter: a filter does not reach meters already registered.
   */
  public static void applyTo(final MeterRegistry registry) {
    registry
        .config()
        .meterFilter(
            new MeterFilter() {
              @Override
              public Meter.Id map(final Meter.Id id) {
                final Family family = FAMILIES.get(id.getName());
                return family == null
                    ? id
                    : new Meter.Id(
                        id.getName(),
                        Tags.of(id.getTagsAsIterable()),
                        id.getBaseUnit(),
                        family.help(),
                        id.getType());
              }
            });
  }

  /** The description of the meter named {@code name}; null for a meter that is not bucketer's. */
  public static String of(final String name) {
    final Family family = FAMILIES.get(name);
    return family == null ? null : family.help();
  }

  /** Every family, in the order docs/operations.md lists them. */
  static List<Family> families() {
    return List.copyOf(FAMILIES.values());
  }

  /** docs/operations.md's meter table: one row per family, from the descriptions above. */
  public static String markdownRows() {
    return FAMILIES.values().stream()
        .map(
            family ->
                "| `"
                    + family.prometheusName()
                    + "` | "
                    + family.kind().prometheusType()
                    + " | "
                    + (family.labels().isEmpty()
                        ? ""
                        : family.labels().stream()
                            .map(label -> "`" + label + "`")
                            .collect(Collectors.joining(", ")))
                    + " | "
                    + family.help()
                    + " |")
        .collect(Collectors.joining("\n"));
  }
}
