package io.bucketer.tenants;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the tasks of this process hold of each tenant's series, summed, for the meters: the series
 * held, the limit the tasks share out between them, and the readings refused by each limit. Each
 * task counts its own changes here ({@link SeriesAdmission}); any thread reads.
 */
public final class TenantSeriesCounts {

  /** Which limit refused a reading. */
  public enum Limit {
    ACTIVE_SERIES("active-series"),
    NEW_SERIES_PER_MINUTE("new-series-per-minute");

    private final String tag;

    Limit(final String tag) {
      this.tag = tag;
    }

    /** Its name in meters and dead letters. */
    public String tag() {
      return tag;
    }
  }

  /** One tenant's counts in this process. */
  public static final class Counts {
    private final TenantLimits.Tenant tenant;
    private final AtomicLong active = new AtomicLong();
    private final AtomicLong allowed = new AtomicLong();
    private final AtomicLong refusedActive = new AtomicLong();
    private final AtomicLong refusedNew = new AtomicLong();

    Counts(final TenantLimits.Tenant tenant) {
      this.tenant = tenant;
    }

    public TenantLimits.Tenant tenant() {
      return tenant;
    }

    /** Series the tasks of this process hold. */
    public long active() {
      return active.get();
    }

    /** Series they may start before a limit refuses one: their shares of the limit, less held. */
    public long headroom() {
      return Math.max(0, allowed.get() - active.get());
    }

    /** Readings refused by {@code limit} since this process started. */
    public long refused(final Limit limit) {
      return (limit == Limit.ACTIVE_SERIES ? refusedActive : refusedNew).get();
    }

    void activeChanged(final long delta) {
      active.addAndGet(delta);
    }

    void allowedChanged(final long delta) {
      allowed.addAndGet(delta);
    }

    void refused(final Limit limit, final long readings) {
      (limit == Limit.ACTIVE_SERIES ? refusedActive : refusedNew).addAndGet(readings);
    }
  }

  private final TenantLimits limits;
  private final Map<String, Counts> byPrefix = new LinkedHashMap<>();

  public TenantSeriesCounts(final TenantLimits limits) {
    this.limits = limits;
    for (final TenantLimits.Tenant tenant : limits.all()) {
      byPrefix.put(tenant.prefix(), new Counts(tenant));
    }
  }

  public TenantLimits limits() {
    return limits;
  }

  /** Every tenant's counts, the default tenant last. */
  public List<Counts> all() {
    return List.copyOf(byPrefix.values());
  }

  Counts of(final TenantLimits.Tenant tenant) {
    return byPrefix.get(tenant.prefix());
  }
}
