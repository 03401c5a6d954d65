package io.bucketer.rescale;

import java.time.Instant;

/**
 * Whether the buckets written since an instant agree with a handover: every window written by one
 * deployment only, the replaced one for windows before the handover and the new one after it.
 *
 * @param since the buckets topic was read from the first record at or after it
 * @param buckets bucket keys written since then
 * @param byReplaced those the replaced deployment wrote
 * @param byNew those the new layout wrote
 * @param byBoth those both wrote
 * @param wrongSide those written by the deployment the handover does not give them to
 */
public record BucketAgreement(
    Instant since, long buckets, long byReplaced, long byNew, long byBoth, long wrongSide) {

  public boolean agrees() {
    return byBoth == 0 && wrongSide == 0;
  }
}
