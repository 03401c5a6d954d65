package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GcCountsTest {

  private static final String SCRAPE =
      """
      # TYPE jvm_gc_memory_allocated_bytes_total counter
      jvm_gc_memory_allocated_bytes_total 4.194304E9
      # TYPE jvm_gc_memory_promoted_bytes_total counter
      jvm_gc_memory_promoted_bytes_total 2.048E8
      # TYPE jvm_gc_pause_seconds summary
      jvm_gc_pause_seconds_count{action="end of minor GC",cause="Allocation Failure",gc="PS Scavenge"} 300
      jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="PS Scavenge"} 6.0
      jvm_gc_pause_seconds_count{action="end of major GC",cause="Ergonomics",gc="PS MarkSweep"} 20
      jvm_gc_pause_seconds_sum{action="end of major GC",cause="Ergonomics",gc="PS MarkSweep"} 8.0
      jvm_gc_pause_seconds_count{action="end of major GC",cause="Diagnostic Command",gc="PS MarkSweep"} 7
      jvm_gc_pause_seconds_sum{action="end of major GC",cause="Diagnostic Command",gc="PS MarkSweep"} 3.5
      """;

  @Test
  void shouldLeaveOutTheFullCollectionsTheBenchmarkAsksFor() {
    final GcCounts counts = GcCounts.from(PrometheusText.parse(SCRAPE));

    assertThat(counts.youngCollections()).isEqualTo(300);
    assertThat(counts.youngPauseSeconds()).isEqualTo(6.0);
    assertThat(counts.fullCollections()).isEqualTo(20);
    assertThat(counts.fullPauseSeconds()).isEqualTo(8.0);
    assertThat(counts.promotedBytes()).isEqualTo(204_800_000);
  }

  @Test
  void shouldSayBytesPerThousandAndCollectionsPerMillionReadings() {
    final GcCounts before = new GcCounts(0, 0, 100, 2.0, 10, 4.0);
    final GcCounts after = GcCounts.from(PrometheusText.parse(SCRAPE));

    assertThat(after.since(before).describe(2_000_000))
        .isEqualTo(
            "2.0 MiB allocated and 100 KiB promoted per 1,000 readings; per 1,000,000 readings"
                + " 100 young collections (2,000 ms paused) and 5.0 full ones (2,000 ms), those"
                + " the heap samples ask for aside");
  }
}
