package io.bucketer.windows;

/**
 * The in-memory {@link WindowStore} of this package's tests, for tests elsewhere that run the real
 * {@link WindowLifecycle} to get the buckets the stream writes (a backfill's reference).
 */
public final class InMemoryWindowStores {

  private InMemoryWindowStores() {}

  public static WindowStore create() {
    return new InMemoryWindowStore();
  }
}
