package io.bucketer.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What Kafka Streams' restore listener told, summed over the stores restoring now. */
class RestoreProgressTest {

  private static final TopicPartition CHANGELOG_0 = new TopicPartition("app-window-changelog", 0);
  private static final TopicPartition CHANGELOG_1 = new TopicPartition("app-window-changelog", 1);

  @Test
  void shouldSumTheStoresThatRestoreAndForgetThoseThatEnded() {
    final RestoreProgress progress = new RestoreProgress();
    assertThat(progress.inProgress()).isFalse();
    assertThat(progress.describe()).isEmpty();

    progress.onRestoreStart(CHANGELOG_0, "window", 100, 100_100);
    progress.onRestoreStart(CHANGELOG_1, "window", 0, 20_000);
    progress.onBatchRestored(CHANGELOG_0, "window", 50_100, 50_000);
    progress.onBatchRestored(CHANGELOG_1, "window", 10_000, 10_000);

    assertThat(progress.inProgress()).isTrue();
    assertThat(progress.describe())
        .contains("restoring 2 stores from the changelogs: 50 % of 120,000 records");

    progress.onRestoreEnd(CHANGELOG_0, "window", 100_000);
    assertThat(progress.describe())
        .contains("restoring 1 store from the changelogs: 50 % of 20,000 records");

    progress.onRestoreSuspended(CHANGELOG_1, "window", 10_000);
    assertThat(progress.inProgress()).isFalse();
    assertThat(progress.describe()).isEmpty();
  }

  @Test
  void shouldIgnoreABatchOfAStoreItWasNotToldOf() {
    final RestoreProgress progress = new RestoreProgress();

    progress.onBatchRestored(CHANGELOG_0, "window", 10, 10);

    assertThat(progress.inProgress()).isFalse();
  }
}
