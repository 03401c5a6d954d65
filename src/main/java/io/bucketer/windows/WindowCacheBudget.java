package io.bucketer.windows;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that the window caches of all tasks of a process may hold together ({@link
 * WriteBehindWindows}), in estimated bytes. Tasks on several stream threads share it; each updates
 * it only when a window enters or leaves its cache.
 */
public final class WindowCacheBudget {

  private final long maxBytes;
  private final AtomicLong heldBytes = new AtomicLong();

  public WindowCacheBudget(final long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("a window cache budget of " + maxBytes + " bytes");
    }
    this.maxBytes = maxBytes;
  }

  /** Takes {@code bytes} of the budget if they are left, and says whether it did. */
  boolean tryTake(final long bytes) {
    long held = heldBytes.get();
    while (held + bytes <= maxBytes) {
      if (heldBytes.compareAndSet(held, held + bytes)) {
        return true;
      }
      held = heldBytes.get();
    }
    return false;
  }

  void release(final long bytes) {
    heldBytes.addAndGet(-bytes);
  }

  /** Estimated bytes all caches hold now. */
  public long heldBytes() {
    return heldBytes.get();
  }
}
