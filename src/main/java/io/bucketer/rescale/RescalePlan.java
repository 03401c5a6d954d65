package io.bucketer.rescale;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Handover;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.RescaleSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a rescale hands the input over, and the settings that make each deployment one side of it.
 *
 * @param replacedApplicationId the running deployment's {@code application.id}
 * @param replacedPartitions its {@code series.partitions}
 * @param newApplicationId the new layout's
 * @param newPartitions the new layout's {@code series.partitions}
 * @param sinkGroup the running deployment's sink group, which the new layout joins
 * @param handover the first instant whose readings are the new layout's: a multiple of every
 *     granularity
 * @param lateUntil the end of the running deployment's late readings: the handover plus its grace
 *     and lateness horizon
 * @param restartBy when the running deployment must run with its new settings: the handover less
 *     {@code max.future.skew}, when a reading past the handover may first be accepted
 * @param fromKeyedInput the running deployment's input is keyed by sensor: the new layout
 *     repartitions it ({@code input.partitioning=any}), and the input may grow once the running one
 *     has stopped
 */
public record RescalePlan(
    String replacedApplicationId,
    int replacedPartitions,
    boolean fromKeyedInput,
    String newApplicationId,
    int newPartitions,
    String sinkGroup,
    Instant handover,
    Instant lateUntil,
    Instant restartBy) {

  /** What the plan is worked out from: the running deployment's settings and the command's. */
  public record Inputs(
      String replacedApplicationId,
      int replacedPartitions,
      boolean replacedKeyedBySensor,
      String sinkGroup,
      List<Granularity> granularities,
      Duration grace,
      Duration latenessHorizon,
      Duration maxFutureSkew,
      String newApplicationId,
      int newPartitions,
      Duration lead) {}

  /**
   * The first handover that splits no window and leaves {@code lead} to restart the running
   * deployment before a reading past it can be accepted.
   */
  public static RescalePlan of(final Inputs inputs, final Instant now) {
    final long earliest = now.plus(inputs.maxFutureSkew()).plus(inputs.lead()).toEpochMilli();
    final Instant handover =
        Instant.ofEpochMilli(Handover.firstInstantAtOrAfter(earliest, inputs.granularities()));
    return new RescalePlan(
        inputs.replacedApplicationId(),
        inputs.replacedPartitions(),
        inputs.replacedKeyedBySensor(),
        inputs.newApplicationId(),
        inputs.newPartitions(),
        inputs.sinkGroup(),
        handover,
        handover.plus(inputs.grace()).plus(inputs.latenessHorizon()),
        handover.minus(inputs.maxFutureSkew()));
  }

  /** What the running deployment adds to its settings. */
  public Map<String, String> replacedSettings() {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put(RescaleSettings.BEFORE, handover.toString());
    settings.put(RescaleSettings.LATE_UNTIL, lateUntil.toString());
    return settings;
  }

  /** What the new layout sets on top of the running deployment's settings. */
  public Map<String, String> newSettings() {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put(KafkaSettings.APPLICATION_ID, newApplicationId);
    settings.put(KafkaSettings.SERIES_PARTITIONS, Integer.toString(newPartitions));
    if (fromKeyedInput) {
      settings.put(KafkaSettings.INPUT_PARTITIONING, KafkaSettings.PARTITIONING_ANY);
    }
    settings.put(RescaleSettings.FROM, handover.toString());
    settings.put(RescaleSettings.LATE_UNTIL, lateUntil.toString());
    settings.put(KafkaSettings.SINK_GROUP_ID, sinkGroup);
    return settings;
  }

  /** The plan as the command prints it: what happens when, and what to do. */
  public List<String> lines(final Instant now) {
    final List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            "series.partitions %d -> %d: %s hands the input over to %s at %s",
            replacedPartitions, newPartitions, replacedApplicationId, newApplicationId, handover));
    lines.add(
        String.format(
            "  readings before %s stay with %s, late ones included, until %s (in %s)",
            handover, replacedApplicationId, lateUntil, until(now, lateUntil)));
    lines.add(
        String.format(
            "1. by %s (in %s), restart every instance of %s with:",
            restartBy, until(now, restartBy), replacedApplicationId));
    replacedSettings().forEach((name, value) -> lines.add("     " + name + "=" + value));
    lines.add(
        String.format(
            "2. start %s (its group reads the input from where %s stands now), its instances"
                + " with instance.ids of their own (the two share the sink's group): the same"
                + " settings, and",
            newApplicationId, replacedApplicationId));
    newSettings().forEach((name, value) -> lines.add("     " + name + "=" + value));
    if (fromKeyedInput) {
      lines.add(
          String.format(
              "   %s's input is keyed by sensor: grow the input topic only once it has stopped"
                  + " (step 3); %s repartitions by series and does not mind",
              replacedApplicationId, newApplicationId));
    }
    lines.add(
        String.format(
            "3. follow it with: bucketer rescale status -c <%s's settings> --other %s",
            newApplicationId, replacedApplicationId));
    lines.add(
        String.format(
            "   it says when %s may stop (once it has read every record written before %s)",
            replacedApplicationId, lateUntil));
    return lines;
  }

  /** How long from {@code now} to {@code then}, to the second, as a person reads it. */
  static String until(final Instant now, final Instant then) {
    final Duration left = Duration.between(now, then);
    if (left.isNegative() || left.isZero()) {
      return "the past";
    }
    if (left.toHours() > 0) {
      return String.format("%d h %02d min", left.toHours(), left.toMinutesPart());
    }
    if (left.toMinutes() > 0) {
      return String.format("%d min %02d s", left.toMinutes(), left.toSecondsPart());
    }
    return left.toSeconds() + " s";
  }
}
