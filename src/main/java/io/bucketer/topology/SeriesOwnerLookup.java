package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.SeriesOwner;
import io.bucketer.windows.PublishedWindows;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * Which instance holds a series' windows, from Kafka Streams' metadata: the series' partition (of
 * the repartition topic, or of the input topic when it is keyed by sensor), and the instance its
 * active task is assigned to, named by the endpoint each instance advertises ({@code
 * application.server}). Standby replicas are not asked: they may lag, and an answer must include
 * every reading the active task has seen.
 */
public final class SeriesOwnerLookup {

  private final Supplier<KafkaStreams> streams;
  private final HostInfo self;
  private final String anyWindowStore;
  private final Granularity finest;
  private final InputPartitioning partitioning;
  private final PublishedWindows.Directory publishedWindows;
  private final SeriesKeySerde keySerde = new SeriesKeySerde();

  /**
   * @param streams the Kafka Streams client that runs when asked (a restart may replace it)
   * @param self the endpoint this instance advertises, as given to {@code application.server}
   * @param finest the finest granularity: any of the aggregator's stores locates the same partition
   * @param partitioning how the topology partitions its state
   * @param publishedWindows the windows this process's tasks hold in memory
   */
  public SeriesOwnerLookup(
      final Supplier<KafkaStreams> streams,
      final HostInfo self,
      final Granularity finest,
      final InputPartitioning partitioning,
      final PublishedWindows.Directory publishedWindows) {
    this.streams = streams;
    this.partitioning = partitioning;
    this.publishedWindows = publishedWindows;
    this.self = self;
    this.anyWindowStore = TopologyNames.windowStore(finest);
    this.finest = finest;
  }

  public SeriesOwner ownerOf(final SeriesKey series) {
    final KafkaStreams client = streams.get();
    final KeyQueryMetadata metadata =
        partitioning instanceof InputPartitioning.BySensorKey bySensor
            ? client.queryMetadataForKey(anyWindowStore, series, bySensor.streamPartitioner())
            : client.queryMetadataForKey(anyWindowStore, series, keySerde.serializer());
    if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)) {
      return new SeriesOwner.Unavailable(
          "no instance holds the state of series "
              + series
              + " now (Kafka Streams is "
              + client.state()
              + ")");
    }
    final HostInfo owner = metadata.activeHost();
    if (!owner.equals(self)) {
      return new SeriesOwner.Remote(owner.host(), owner.port());
    }
    final int partition = metadata.partition();
    final PublishedWindows inMemory = publishedWindows.of(partition);
    if (inMemory == null) {
      // Kafka Streams names this instance, but the task has not started here yet, or has left.
      return new SeriesOwner.Unavailable(
          "the state of series " + series + " is moving to this instance, or away from it");
    }
    return new SeriesOwner.Local(
        new StateStoreWindows(
            name ->
                client.store(
                    StoreQueryParameters.fromNameAndType(
                            name, QueryableStoreTypes.<Bytes, byte[]>keyValueStore())
                        .withPartition(partition)),
            finest,
            inMemory));
  }
}
