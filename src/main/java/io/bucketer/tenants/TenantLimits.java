package io.bucketer.tenants;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How many series each tenant may hold ({@code series.limit.*}). A tenant is a sensor-id prefix, as
 * in {@code http.auth}'s users; a sensor id belongs to the tenant of the longest prefix it starts
 * with, and one that starts with none to the default tenant, {@value #DEFAULT_TENANT}. Every tenant
 * not given limits of its own has the default ones.
 *
 * <p>Series are what a tenant costs: each holds open windows, state, window-log entries and a
 * document per window, until it has been silent for a lateness horizon. A gateway that puts a
 * counter in its device id makes a new series of every reading, so the limits bound the series a
 * tenant holds at once ({@link Limits#activeSeries}) and how fast it may start new ones ({@link
 * Limits#newSeriesPerMinute}), as Prometheus' {@code sample_limit} and Mimir's {@code
 * max_global_series_per_user} do.
 *
 * @param defaults the limits of the default tenant, and of every tenant given none of its own
 * @param tenants the tenants named, each by its prefix
 */
public record TenantLimits(Limits defaults, List<Tenant> tenants) {

  /** The name the default tenant goes by in meters and dead letters. */
  public static final String DEFAULT_TENANT = "*";

  /** The limits when none are configured: generous for the documented sizing, not unbounded. */
  public static final TenantLimits DEFAULT =
      new TenantLimits(new Limits(1_000_000, 1_000_000), List.of());

  /**
   * One tenant's limits across the deployment.
   *
   * @param activeSeries the series it may hold at once
   * @param newSeriesPerMinute the series it may start in a minute of the wall clock; a minute's
   *     worth may start at once
   */
  public record Limits(long activeSeries, long newSeriesPerMinute) {

    public Limits {
      if (activeSeries < 1 || newSeriesPerMinute < 1) {
        throw new IllegalArgumentException("a series limit must be at least 1");
      }
    }

    @Override
    public String toString() {
      return activeSeries + " active series, " + newSeriesPerMinute + " new a minute";
    }
  }

  /**
   * A tenant: the sensor ids that start with {@code prefix}, and its limits.
   *
   * @param prefix empty for the default tenant
   */
  public record Tenant(String prefix, Limits limits) {

    /** The tenant's name in meters and dead letters: its prefix, or {@value #DEFAULT_TENANT}. */
    public String name() {
      return prefix.isEmpty() ? DEFAULT_TENANT : prefix;
    }
  }

  public TenantLimits {
    final List<Tenant> longestFirst = new ArrayList<>(tenants);
    longestFirst.sort(
        Comparator.comparingInt((Tenant tenant) -> tenant.prefix().length()).reversed());
    final Set<String> prefixes = new HashSet<>();
    for (final Tenant tenant : longestFirst) {
      if (tenant.prefix().isEmpty() || !prefixes.add(tenant.prefix())) {
        throw new IllegalArgumentException(
            tenant.prefix().isEmpty()
                ? "a tenant's prefix cannot be empty: the default tenant has series.limit.*"
                : "the tenant " + tenant.prefix() + " is given twice");
      }
    }
    tenants = List.copyOf(longestFirst);
  }

  /** The tenant {@code sensorId} belongs to: the longest prefix it starts with, or the default. */
  public Tenant tenantOf(final String sensorId) {
    for (final Tenant tenant : tenants) {
      if (sensorId.startsWith(tenant.prefix())) {
        return tenant;
      }
    }
    return defaultTenant();
  }

  /** The tenant of the sensor ids no configured prefix matches. */
  public Tenant defaultTenant() {
    return new Tenant("", defaults);
  }

  /** Every tenant, the default one last. */
  public List<Tenant> all() {
    final List<Tenant> all = new ArrayList<>(tenants);
    all.add(defaultTenant());
    return all;
  }

  /**
   * Every tenant's limits in one line, the default tenant last: {@code acme- 50000 active series,
   * 5000 new a minute; * (the rest) ...}.
   */
  public String describe() {
    final StringBuilder line = new StringBuilder();
    for (final Tenant tenant : tenants) {
      line.append(tenant.name()).append(' ').append(tenant.limits()).append("; ");
    }
    return line.append(DEFAULT_TENANT)
        .append(tenants.isEmpty() ? " (every sensor) " : " (the rest) ")
        .append(defaults)
        .append(", per tenant across the deployment")
        .toString();
  }

  /**
   * Parses {@code series.limit.tenants}: comma-separated {@code <prefix>=<active>/<new a minute>}
   * pairs, such as {@code acme-=50000/5000}; empty means none.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static List<Tenant> parseTenants(final String text) {
    final List<Tenant> tenants = new ArrayList<>();
    for (final String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      // The last '=': the limits have none, a prefix might.
      final int equals = part.lastIndexOf('=');
      final String prefix = equals < 0 ? "" : part.substring(0, equals).trim();
      final String[] limits = part.substring(equals + 1).trim().split("/", -1);
      if (prefix.isEmpty() || limits.length != 2) {
        throw new IllegalArgumentException(
            "'" + part.trim() + "' is not <prefix>=<active series>/<new series a minute>");
      }
      tenants.add(
          new Tenant(prefix, new Limits(positive(limits[0], part), positive(limits[1], part))));
    }
    return tenants;
  }

  private static long positive(final String number, final String part) {
    try {
      final long value = Long.parseLong(number.trim().replace("_", ""));
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException notANumber) {
      // said below, with the part it is in
    }
    throw new IllegalArgumentException(
        "'" + part.trim() + "': a series limit must be a whole number of at least 1");
  }
}
