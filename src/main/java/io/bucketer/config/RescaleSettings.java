package io.bucketer.config;

import static io.bucketer.config.SettingValidators.parsedBy;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Handover;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * A rescale under way ({@code rescale.*}): which side of the handover this deployment is, read
 * through {@link BucketerConfig#rescale()}. {@code bucketer rescale} prints these settings for both
 * deployments; nobody needs to work them out by hand.
 */
public final class RescaleSettings {

  public static final String BEFORE = "rescale.before";
  public static final String FROM = "rescale.from";
  public static final String LATE_UNTIL = "rescale.late.until";

  private static final String INSTANT_FORM =
      "empty, or an ISO-8601 instant in UTC, e.g. 2026-12-05T08:00:00Z";

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              BEFORE,
              Type.STRING,
              "",
              parsedBy(RescaleSettings::instantOrEmpty, INSTANT_FORM),
              Importance.LOW,
              "Set by bucketer rescale on the deployment a rescale replaces: it takes only"
                  + " readings timestamped before this instant, whose windows it holds, and leaves"
                  + " the later ones to the new layout (counted in bucketer_readings_total,"
                  + " outcome=handed-over). Must be a multiple of every granularity, so that no"
                  + " window is split. Empty: no rescale.")
          .define(
              FROM,
              Type.STRING,
              "",
              parsedBy(RescaleSettings::instantOrEmpty, INSTANT_FORM),
              Importance.LOW,
              "Set by bucketer rescale on the new layout of a rescale: it takes only readings"
                  + " timestamped at or after this instant, and leaves the earlier ones to the"
                  + " deployment it replaces, until rescale.late.until. Empty: no rescale.")
          .define(
              LATE_UNTIL,
              Type.STRING,
              "",
              parsedBy(RescaleSettings::instantOrEmpty, INSTANT_FORM),
              Importance.LOW,
              "With rescale.before or rescale.from: the end of the replaced deployment's late"
                  + " readings (the handover plus its grace and lateness.horizon). A reading before"
                  + " the handover in a record written at or after it is the new layout's, which"
                  + " calls it too late; the replaced deployment may stop once it has read every"
                  + " record written before it (bucketer rescale status says when).");

  private final AbstractConfig values;

  RescaleSettings(final AbstractConfig values) {
    this.values = values;
  }

  /**
   * This deployment's side of a rescale, checked against its windows.
   *
   * @throws ConfigException when both sides are set, the end of late readings is missing or before
   *     the handover, or the handover splits a window
   */
  public Handover handover(final List<Granularity> granularities) {
    final Optional<Instant> before = instant(BEFORE);
    final Optional<Instant> from = instant(FROM);
    if (before.isPresent() && from.isPresent()) {
      throw new ConfigException(
          BEFORE
              + " and "
              + FROM
              + " are both set: a deployment is one side of one rescale; finish the rescale under"
              + " way (bucketer rescale status) before starting another");
    }
    if (before.isEmpty() && from.isEmpty()) {
      return Handover.NONE;
    }
    final String name = before.isPresent() ? BEFORE : FROM;
    final Instant handover = before.orElseGet(from::get);
    final Instant lateUntil =
        instant(LATE_UNTIL)
            .orElseThrow(
                () ->
                    new ConfigException(
                        LATE_UNTIL,
                        "",
                        "must be set with "
                            + name
                            + ": bucketer rescale prints both deployments' settings"));
    if (lateUntil.isBefore(handover)) {
      throw new ConfigException(LATE_UNTIL, lateUntil.toString(), "is before " + name);
    }
    final List<Granularity> split = Handover.splitBy(handover.toEpochMilli(), granularities);
    if (!split.isEmpty()) {
      throw new ConfigException(
          name,
          handover.toString(),
          "is inside a window of "
              + split.stream().map(Granularity::label).toList()
              + ": a handover must be a multiple of every granularity, so that each window is"
              + " written by one deployment");
    }
    return new Handover(
        before.isPresent() ? Handover.Side.BEFORE : Handover.Side.FROM,
        handover.toEpochMilli(),
        lateUntil.toEpochMilli());
  }

  private Optional<Instant> instant(final String name) {
    final String value = values.getString(name);
    return value.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(value));
  }

  private static void instantOrEmpty(final String value) {
    if (value.isEmpty()) {
      return;
    }
    try {
      Instant.parse(value);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("not an ISO-8601 instant: " + e.getMessage(), e);
    }
  }
}
