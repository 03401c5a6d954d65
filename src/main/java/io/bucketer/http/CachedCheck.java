package io.bucketer.http;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A check that costs a round trip (a MongoDB ping), run at most once per {@code ttl}: readiness
 * probes, scrapers and load balancers may ask many times a second, and each answer within the ttl
 * reuses the last result instead of adding load to the dependency being checked.
 *
 * @param <T> the check's result, such as why the dependency does not answer
 */
public final class CachedCheck<T> implements Supplier<T> {

  private final Supplier<T> check;
  private final long ttlNanos;
  private final LongSupplier nanoTime;
  private boolean checked;
  private T lastResult;
  private long checkedAt;

  public CachedCheck(final Supplier<T> check, final Duration ttl) {
    this(check, ttl, System::nanoTime);
  }

  /** With a clock of the caller's, for tests. */
  CachedCheck(final Supplier<T> check, final Duration ttl, final LongSupplier nanoTime) {
    this.check = check;
    this.ttlNanos = ttl.toNanos();
    this.nanoTime = nanoTime;
  }

  /** The last result if younger than the ttl, else a fresh one; concurrent callers share it. */
  @Override
  public synchronized T get() {
    final long now = nanoTime.getAsLong();
    if (!checked || now - checkedAt >= ttlNanos) {
      lastResult = check.get();
      checkedAt = nanoTime.getAsLong();
      checked = true;
    }
    return lastResult;
  }
}
