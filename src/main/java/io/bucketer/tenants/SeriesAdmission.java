package io.bucketer.tenants;

import io.bucketer.buckets.SeriesKey;
import io.bucketer.tenants.TenantSeriesCounts.Limit;
import io.bucketer.windows.SeriesGate;
import java.util.HashMap;
import java.util.Map;

/**
 * The tenants' series limits in one task: the gate its window lifecycle asks before a series starts
 * to hold state.
 *
 * <p><b>A limit is shared out between the tasks.</b> Each task holds the series of one partition,
 * and series spread over the partitions by their hash, so a task allows each tenant its share of
 * the deployment's limits: the limit divided by the number of partitions, rounded up. No task needs
 * to ask another, and what a task allows does not depend on which instance runs it. The price is
 * that a tenant near its limit is refused a little early, in the partition its series happen to
 * crowd; the tenant's headroom meter shows it.
 *
 * <p><b>Active series</b> are those the task's lifecycle holds state for, counted from the state
 * itself when the task starts ({@link #restored}), so a restart neither forgets nor doubles them.
 * <b>New series a minute</b> are limited by a token bucket on the wall clock: a minute's worth may
 * start at once, and the bucket fills at that rate. It starts full when the task starts.
 *
 * <p>Confined to the task's stream thread; what it counts is added to the process' {@link
 * TenantSeriesCounts}, which any thread reads.
 */
public final class SeriesAdmission implements SeriesGate {

  private static final long MILLIS_PER_MINUTE = 60_000;

  /**
   * Why the last reading refused was refused, for its dead letter.
   *
   * @param why one line that names the tenant and its limit
   */
  public record Refusal(TenantLimits.Tenant tenant, Limit limit, String why) {}

  /** One tenant in this task. */
  private static final class TaskTenant {
    final TenantLimits.Tenant tenant;
    final TenantSeriesCounts.Counts counts;
    final long activeAllowed;
    final long newPerMinute;
    long active;

    /**
     * The token bucket of new series, in token-milliseconds: a new series takes {@link
     * #MILLIS_PER_MINUTE}, and each millisecond adds {@link #newPerMinute}. Whole numbers, so that
     * a token comes exactly when it is due.
     */
    long credit;

    long refilledAt = Long.MIN_VALUE;

    TaskTenant(
        final TenantLimits.Tenant tenant, final TenantSeriesCounts counts, final int shares) {
      this.tenant = tenant;
      this.counts = counts.of(tenant);
      this.activeAllowed = ceilDiv(tenant.limits().activeSeries(), shares);
      // at most what a long holds as two minutes' credit, so that a refill cannot overflow
      this.newPerMinute =
          Math.min(
              ceilDiv(tenant.limits().newSeriesPerMinute(), shares),
              Long.MAX_VALUE / (2 * MILLIS_PER_MINUTE));
      this.credit = newPerMinute * MILLIS_PER_MINUTE;
    }

    /** Takes a token for a new series at {@code wallClock}, if the bucket has one. */
    boolean takeToken(final long wallClock) {
      if (refilledAt != Long.MIN_VALUE && wallClock > refilledAt) {
        // a minute fills the bucket: longer adds nothing, and would only risk overflow
        final long elapsed = Math.min(wallClock - refilledAt, MILLIS_PER_MINUTE);
        credit = Math.min(newPerMinute * MILLIS_PER_MINUTE, credit + elapsed * newPerMinute);
      }
      refilledAt = Math.max(refilledAt, wallClock);
      if (credit < MILLIS_PER_MINUTE) {
        return false;
      }
      credit -= MILLIS_PER_MINUTE;
      return true;
    }

    void activeChanged(final long delta) {
      active += delta;
      counts.activeChanged(delta);
    }
  }

  private final TenantLimits limits;
  private final int shares;
  private final Map<String, TaskTenant> tenants = new HashMap<>();
  private Refusal lastRefusal;

  /**
   * @param counts the process' counts, which this task's are added to
   * @param shares how many tasks share the deployment's limits: the partitions that series are
   *     spread over
   */
  public SeriesAdmission(final TenantSeriesCounts counts, final int shares) {
    if (shares < 1) {
      throw new IllegalArgumentException("limits are shared between at least one task");
    }
    this.limits = counts.limits();
    this.shares = shares;
    for (final TenantLimits.Tenant tenant : limits.all()) {
      final TaskTenant taskTenant = new TaskTenant(tenant, counts, shares);
      taskTenant.counts.allowedChanged(taskTenant.activeAllowed);
      tenants.put(tenant.prefix(), taskTenant);
    }
  }

  @Override
  public boolean admit(final SeriesKey series, final long wallClock) {
    final TaskTenant tenant = tenantOf(series);
    if (tenant.active >= tenant.activeAllowed) {
      return refuse(tenant, Limit.ACTIVE_SERIES);
    }
    if (!tenant.takeToken(wallClock)) {
      return refuse(tenant, Limit.NEW_SERIES_PER_MINUTE);
    }
    tenant.activeChanged(1);
    return true;
  }

  @Override
  public void restored(final SeriesKey series) {
    tenantOf(series).activeChanged(1);
  }

  @Override
  public void released(final SeriesKey series) {
    tenantOf(series).activeChanged(-1);
  }

  @Override
  public void clear() {
    for (final TaskTenant tenant : tenants.values()) {
      tenant.activeChanged(-tenant.active);
    }
  }

  /** The task closes: what it held and allowed no longer counts in this process. */
  public void close() {
    clear();
    for (final TaskTenant tenant : tenants.values()) {
      tenant.counts.allowedChanged(-tenant.activeAllowed);
    }
  }

  /** Why the last reading refused was refused; null before any was. */
  public Refusal lastRefusal() {
    return lastRefusal;
  }

  private TaskTenant tenantOf(final SeriesKey series) {
    return tenants.get(limits.tenantOf(series.sensorId()).prefix());
  }

  private boolean refuse(final TaskTenant tenant, final Limit limit) {
    tenant.counts.refused(limit, 1);
    final TenantLimits.Limits configured = tenant.tenant.limits();
    final String why =
        limit == Limit.ACTIVE_SERIES
            ? "tenant "
                + tenant.tenant.name()
                + " holds its limit of "
                + configured.activeSeries()
                + " active series ("
                + tenant.activeAllowed
                + " in this series partition, 1 of "
                + shares
                + ")"
            : "tenant "
                + tenant.tenant.name()
                + " started its limit of "
                + configured.newSeriesPerMinute()
                + " new series a minute ("
                + tenant.newPerMinute
                + " in this series partition, 1 of "
                + shares
                + ")";
    lastRefusal = new Refusal(tenant.tenant, limit, why);
    return false;
  }

  private static long ceilDiv(final long limit, final int shares) {
    return (limit + shares - 1) / shares;
  }
}
