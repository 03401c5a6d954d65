package io.bucketer.topology;

/**
 * Whether a task's readings repeat their series within a commit, which decides whether {@link
 * PartitionBatches} gathers each series' readings or writes them as they come.
 *
 * <p>It starts gathering, and counts the readings whose series was already gathered in the same
 * commit's batches. When at least {@value #READINGS_TO_JUDGE} readings were gathered between two
 * drains and fewer than one in {@value #REPEATS_WORTH_GATHERING} repeated a series (a live fleet:
 * one reading of each series per commit), the next {@value #WRITTEN_DRAINS} drains' batches are
 * written as the readings come; then one is gathered again, to look. A backlog, dozens of readings
 * of each series per commit, keeps being gathered; a live fleet gathers one commit in sixteen. A
 * fleet that turns into a backlog (a gateway that sends what it stored during an outage) is
 * gathered again within {@value #WRITTEN_DRAINS} commits: until then its series' readings travel as
 * parts of one reading, which the aggregator puts together again (nothing is lost or reordered,
 * only bytes spent).
 *
 * <p>A drain is each commit's, and each one the task makes within a commit when it holds as many
 * readings as it may ({@link PartitionBatches}): at live traffic one a commit, under a backlog
 * several, which only brings a backlog's look sooner.
 */
final class SeriesRepeats {

  /** Fewer readings between two drains say too little of the traffic to stop gathering. */
  static final int READINGS_TO_JUDGE = 256;

  /** Gathering pays once at least one reading in this many repeats a series. */
  static final int REPEATS_WORTH_GATHERING = 4;

  /** Drains written as the readings come before one is gathered again to look. */
  static final int WRITTEN_DRAINS = 15;

  private boolean gathering = true;
  private int readings;
  private int repeated;
  private int writtenDrains;

  boolean gathering() {
    return gathering;
  }

  /** One reading gathered; {@code repeat} when its series was already in the batches. */
  void reading(final boolean repeat) {
    readings++;
    if (repeat) {
      repeated++;
    }
  }

  /** The batches were drained: the next ones are gathered or written as this one's repeats say. */
  void batchesDrained() {
    if (gathering) {
      gathering =
          readings < READINGS_TO_JUDGE || (long) repeated * REPEATS_WORTH_GATHERING >= readings;
      writtenDrains = 0;
    } else if (++writtenDrains >= WRITTEN_DRAINS) {
      gathering = true;
    }
    readings = 0;
    repeated = 0;
  }

  /** Starts over, gathering. */
  void clear() {
    gathering = true;
    readings = 0;
    repeated = 0;
    writtenDrains = 0;
  }
}
