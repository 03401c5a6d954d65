package io.bucketer.sink;

import io.bucketer.buckets.ClosedBucket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * What one {@link MongoBucketWriter#write} changed, told bucket by bucket: the buckets that changed
 * nothing, because MongoDB already held their revision or a newer one (the revision guard refused
 * them, {@link BucketWriteModels}), or because the call held a newer revision of the same document
 * ({@link BucketChunk}). Every other bucket of the call created or replaced its document.
 *
 * <p>Told from MongoDB's duplicate-key errors and the revisions it then reports, never from the
 * bulk result's counts (which a stand-in miscounts). A call that is retried after a partial failure
 * finds the documents its first attempt wrote already there: they count as unchanged the second
 * time.
 */
public record WriteResult(List<ClosedBucket> unchanged) {

  public WriteResult {
    unchanged = List.copyOf(unchanged);
  }

  static WriteResult of(
      final List<ClosedBucket> buckets, final List<BulkWriteFailures.Outcome> outcomes) {
    // By identity: two equal buckets in one call are two writes, one of which was dropped.
    final Set<ClosedBucket> changed = Collections.newSetFromMap(new IdentityHashMap<>());
    for (final BulkWriteFailures.Outcome outcome : outcomes) {
      final List<ClosedBucket> sent = outcome.chunk().buckets();
      for (int i = 0; i < sent.size(); i++) {
        if (!outcome.staleWrites().contains(i)) {
          changed.add(sent.get(i));
        }
      }
    }
    final List<ClosedBucket> unchanged = new ArrayList<>();
    for (final ClosedBucket bucket : buckets) {
      if (!changed.remove(bucket)) {
        unchanged.add(bucket);
      }
    }
    return new WriteResult(unchanged);
  }
}
