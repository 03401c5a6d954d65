package io.bucketer.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * One row of the soak over time: what the processor holds (heap after a full collection, resident
 * memory, state directory; unknown while it is frozen, killed or starting), what the cluster holds
 * (the bytes of the input, the internal topics, the buckets topic), how far behind the processor is
 * (the input's lag), and close → visible over the stretch since the last row.
 */
record SoakSample(
    Duration elapsed,
    long sent,
    double heapMib,
    double rssMib,
    double stateMib,
    double inputMib,
    double internalMib,
    double bucketsMib,
    long inputLag,
    double closeToVisibleP99Ms,
    String note) {

  private static final double MIB = 1024.0 * 1024.0;

  static String header() {
    return String.format(
        "%8s %12s %9s %9s %9s %9s %10s %9s %10s %12s  %s",
        "minutes",
        "sent",
        "heap MiB",
        "RSS MiB",
        "state MiB",
        "input MiB",
        "intern MiB",
        "bkts MiB",
        "input lag",
        "c→v p99 ms",
        "");
  }

  String row() {
    return String.format(
        "%8.1f %,12d %9s %9s %9s %9.1f %10.1f %9.1f %,10d %12s  %s",
        elapsed.toMillis() / 60_000.0,
        sent,
        known(heapMib),
        known(rssMib),
        known(stateMib),
        inputMib,
        internalMib,
        bucketsMib,
        inputLag,
        Double.isNaN(closeToVisibleP99Ms)
            ? "-"
            : Double.isInfinite(closeToVisibleP99Ms)
                ? "over max"
                : String.format("%,.0f", closeToVisibleP99Ms),
        note);
  }

  private static String known(final double value) {
    return Double.isNaN(value) ? "-" : String.format("%.1f", value);
  }

  /**
   * The cluster's side of a row: bytes on the broker's disks by kind of topic, and the input's lag
   * behind the processors' committed offsets.
   */
  record ClusterFigures(double inputMib, double internalMib, double bucketsMib, long inputLag) {

    static ClusterFigures read(
        final Admin admin,
        final String inputTopic,
        final String bucketsTopic,
        final String applicationId)
        throws Exception {
      final Collection<Node> nodes = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
      final Map<String, Long> bytes = new HashMap<>();
      for (final Map<String, LogDirDescription> dirs :
          admin
              .describeLogDirs(nodes.stream().map(Node::id).toList())
              .allDescriptions()
              .get(30, TimeUnit.SECONDS)
              .values()) {
        for (final LogDirDescription dir : dirs.values()) {
          for (final Map.Entry<TopicPartition, ReplicaInfo> replica :
              dir.replicaInfos().entrySet()) {
            bytes.merge(replica.getKey().topic(), replica.getValue().size(), Long::sum);
          }
        }
      }
      final long input = bytes.getOrDefault(inputTopic, 0L);
      final long buckets = bytes.getOrDefault(bucketsTopic, 0L);
      final long internal =
          bytes.entrySet().stream()
              .filter(topic -> topic.getKey().startsWith(applicationId + "-"))
              .mapToLong(Map.Entry::getValue)
              .sum();
      final Map<TopicPartition, Long> ends = TopicRecords.endOffsets(admin, List.of(inputTopic));
      final Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(applicationId)
              .partitionsToOffsetAndMetadata()
              .get(30, TimeUnit.SECONDS);
      long lag = 0;
      for (final Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
        final OffsetAndMetadata offset = committed.get(end.getKey());
        // the end offsets are read first: a commit since may pass them
        lag += Math.max(0, end.getValue() - (offset == null ? 0 : offset.offset()));
      }
      return new ClusterFigures(input / MIB, internal / MIB, buckets / MIB, lag);
    }
  }

  /**
   * Whether each figure stayed flat over the run: the median of its last quarter of rows against
   * that of its second quarter (the first holds the start-up), within a quarter more plus a little
   * slack for figures near zero. Growth with time is what a soak looks for: memory, lag or latency
   * that a fleet of fixed size keeps adding to.
   *
   * <p>What is kept for a retention grows by design until the retention is reached, whatever the
   * fleet: closed windows stay in the state and the changelogs for the lateness horizon (24 h by
   * default), bucket records in the buckets topic as long, readings in the input for its retention.
   * Of those the soak asks whether they grow steadily (the rate of the last quarter within a
   * quarter more than that of the second) rather than faster and faster, and prints the rate, from
   * which their size at the retention follows.
   */
  static void printFlatness(final List<SoakSample> samples, final PrintStream out) {
    if (samples.size() < 8) {
      out.println("too few rows to say whether the figures stayed flat; run longer");
      return;
    }
    flat(samples, "heap after GC, MiB", SoakSample::heapMib, 16, out);
    flat(samples, "resident memory, MiB", SoakSample::rssMib, 64, out);
    flat(samples, "input lag, readings", sample -> sample.inputLag(), 5_000, out);
    flat(samples, "close → visible p99, ms", SoakSample::closeToVisibleP99Ms, 1_000, out);
    steady(samples, "state directory, MiB", SoakSample::stateMib, out);
    steady(samples, "internal topics on disk, MiB", SoakSample::internalMib, out);
    steady(samples, "buckets topic on disk, MiB", SoakSample::bucketsMib, out);
    steady(samples, "input topic on disk, MiB", SoakSample::inputMib, out);
  }

  private static void steady(
      final List<SoakSample> samples,
      final String figure,
      final ToDoubleFunction<SoakSample> value,
      final PrintStream out) {
    final int quarter = samples.size() / 4;
    final double second = perHour(samples.subList(quarter, 2 * quarter), value);
    final double last = perHour(samples.subList(samples.size() - quarter, samples.size()), value);
    final String verdict =
        Double.isNaN(second) || Double.isNaN(last)
            ? "not known (too few rows with it)"
            : last <= second * 1.25 + 1 ? "steady (kept until its retention)" : "ACCELERATING";
    out.printf(
        "  %-32s second quarter %+,10.1f an hour, last quarter %+,10.1f an hour: %s%n",
        figure, second, last, verdict);
  }

  /** The figure's change an hour between the first and last known rows of {@code samples}. */
  private static double perHour(
      final List<SoakSample> samples, final ToDoubleFunction<SoakSample> value) {
    SoakSample first = null;
    SoakSample last = null;
    for (final SoakSample sample : samples) {
      if (!Double.isNaN(value.applyAsDouble(sample))) {
        first = first == null ? sample : first;
        last = sample;
      }
    }
    if (first == null || first == last) {
      return Double.NaN;
    }
    final double hours = (last.elapsed().toMillis() - first.elapsed().toMillis()) / 3_600_000.0;
    return (value.applyAsDouble(last) - value.applyAsDouble(first)) / hours;
  }

  private static void flat(
      final List<SoakSample> samples,
      final String figure,
      final ToDoubleFunction<SoakSample> value,
      final double slack,
      final PrintStream out) {
    final int quarter = samples.size() / 4;
    final double second = median(samples.subList(quarter, 2 * quarter), value);
    final double last = median(samples.subList(samples.size() - quarter, samples.size()), value);
    final String verdict =
        Double.isNaN(second) || Double.isNaN(last)
            ? "not known (too few rows with it)"
            : last <= second * 1.25 + slack ? "flat" : "GREW";
    out.printf(
        "  %-32s second quarter %,12.1f, last quarter %,12.1f: %s%n",
        figure, second, last, verdict);
  }

  private static double median(
      final List<SoakSample> samples, final ToDoubleFunction<SoakSample> value) {
    final List<Double> known = new ArrayList<>();
    for (final SoakSample sample : samples) {
      final double v = value.applyAsDouble(sample);
      if (!Double.isNaN(v) && !Double.isInfinite(v)) {
        known.add(v);
      }
    }
    if (known.isEmpty()) {
      return Double.NaN;
    }
    known.sort(Double::compare);
    return known.get(known.size() / 2);
  }
}
