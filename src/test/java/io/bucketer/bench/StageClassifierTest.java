package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.bench.StageClassifier.Stage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stacks as JFR showed them in row 2, cut short; the top frame first. */
class StageClassifierTest {

  private static final String STREAM_THREAD = "bucketer-bench-measured1-5dc2-StreamThread-1";
  private static final String TASK_LOOP_BOTTOM =
      "org.apache.kafka.streams.processor.internals.StreamTask.process";

  private static Stage onStreamThread(final String... frames) {
    return StageClassifier.classify(STREAM_THREAD, List.of(frames));
  }

  @Test
  void shouldChargeAvroParsingToTheDecoderThatCalledIt() {
    assertThat(
            onStreamThread(
                "org.apache.avro.util.Utf8.toString",
                "org.apache.avro.io.BinaryDecoder.readString",
                "io.bucketer.ingest.MappedAvroDecoder.readings",
                "io.bucketer.topology.ReadingDecodeProcessor.process",
                "org.apache.kafka.streams.processor.internals.ProcessorNode.process",
                TASK_LOOP_BOTTOM))
        .isEqualTo(Stage.DECODE);
  }

  @Test
  void shouldChargeTheDecodeProcessorsForwardingToDecode() {
    // ReadingDecodeProcessor is in io.bucketer.topology, whose rule is aggregate: the more
    // specific rule wins
    assertThat(
            onStreamThread(
                "org.apache.kafka.streams.processor.internals.ProcessorContextImpl.forward",
                "io.bucketer.topology.ReadingDecodeProcessor.process",
                TASK_LOOP_BOTTOM))
        .isEqualTo(Stage.DECODE);
  }

  @Test
  void shouldChargeTheRepartitionsSerdeAndTheBatchersSendsToRepartition() {
    assertThat(
            onStreamThread(
                "io.bucketer.topology.ReadingBatchSerde.deserialize",
                "org.apache.kafka.streams.processor.internals.SourceNode.deserializeValue",
                "org.apache.kafka.streams.processor.internals.RecordQueue.addRawRecords",
                "org.apache.kafka.streams.processor.internals.StreamThread.pollPhase"))
        .isEqualTo(Stage.REPARTITION);
    // the producer's work under the repartition's sink node, which only the batcher forwards to
    assertThat(
            onStreamThread(
                "org.apache.kafka.common.record.internal.DefaultRecord.writeTo",
                "org.apache.kafka.clients.producer.KafkaProducer.doSend",
                "org.apache.kafka.streams.processor.internals.RecordCollectorImpl.send",
                "org.apache.kafka.streams.processor.internals.SinkNode.process",
                "io.bucketer.topology.CommitTimeForwarder.forward",
                "io.bucketer.topology.ReadingBatcher.lambda$init$0",
                "io.bucketer.topology.PreCommitHookStore.flush"))
        .isEqualTo(Stage.REPARTITION);
  }

  @Test
  void shouldNotTakeReadingBatcherForTheReadingBatchClassByItsPrefix() {
    assertThat(
            StageClassifier.matches(
                "io.bucketer.topology.ReadingBatcher.process", "io.bucketer.topology.ReadingBatch"))
        .isFalse();
    assertThat(
            StageClassifier.matches(
                "io.bucketer.topology.ReadingBatch$Builder.add",
                "io.bucketer.topology.ReadingBatch"))
        .isTrue();
  }

  @Test
  void shouldChargeWindowCodeCacheAndRocksDbToAggregate() {
    assertThat(
            onStreamThread(
                "io.bucketer.buckets.BucketStats.merge",
                "io.bucketer.windows.WindowLifecycle.add",
                "io.bucketer.topology.BucketAggregator.process",
                TASK_LOOP_BOTTOM))
        .isEqualTo(Stage.AGGREGATE);
    assertThat(
            onStreamThread(
                "org.rocksdb.RocksDB.put",
                "org.apache.kafka.streams.state.internals.RocksDBStore.put",
                "org.apache.kafka.streams.state.internals.MeteredKeyValueStore.put",
                "io.bucketer.topology.TaskWindowStore.put",
                "io.bucketer.windows.WriteBehindWindows.flush"))
        .isEqualTo(Stage.AGGREGATE);
  }

  @Test
  void shouldChargeAChangelogSendInsideAWindowPutToTheChangelog() {
    assertThat(
            onStreamThread(
                "org.apache.kafka.common.record.internal.DefaultRecord.writeTo",
                "org.apache.kafka.clients.producer.internals.RecordAccumulator.append",
                "org.apache.kafka.clients.producer.KafkaProducer.doSend",
                "org.apache.kafka.streams.processor.internals.StreamsProducer.send",
                "org.apache.kafka.streams.processor.internals.RecordCollectorImpl.send",
                "org.apache.kafka.streams.processor.internals.ProcessorContextImpl.logChange",
                "org.apache.kafka.streams.state.internals.ChangeLoggingKeyValueBytesStore.log",
                "org.apache.kafka.streams.state.internals.ChangeLoggingKeyValueBytesStore.put",
                "org.apache.kafka.streams.state.internals.MeteredKeyValueStore.put",
                "io.bucketer.topology.TaskWindowStore.put",
                "io.bucketer.windows.WriteBehindWindows.flush",
                "io.bucketer.topology.BucketAggregator.lambda$init$1"))
        .isEqualTo(Stage.CHANGELOG);
  }

  @Test
  void shouldChargeCompressionToTheClientsEvenInsideAChangelogSend() {
    assertThat(
            onStreamThread(
                "com.github.luben.zstd.ZstdOutputStreamNoFinalizer.write",
                "org.apache.kafka.common.compress.ZstdCompression.wrapForOutput",
                "org.apache.kafka.clients.producer.internals.RecordAccumulator.append",
                "org.apache.kafka.streams.processor.internals.ProcessorContextImpl.logChange",
                "org.apache.kafka.streams.state.internals.ChangeLoggingKeyValueBytesStore.put"))
        .isEqualTo(Stage.KAFKA_CLIENTS);
  }

  @Test
  void shouldChargeTheSinkThreadsWorkAndTheDriversToTheSink() {
    assertThat(
            StageClassifier.classify(
                "bucketer-sink",
                List.of(
                    "org.bson.io.BasicOutputBuffer.writeInt32",
                    "org.bson.BsonBinaryWriter.doWriteEndDocument",
                    "io.bucketer.sink.BucketDocuments.toDocument",
                    "io.bucketer.sink.BucketSink.run")))
        .isEqualTo(Stage.SINK);
    // the closed buckets' Avro, read back by the sink's consumer
    assertThat(
            StageClassifier.classify(
                "bucketer-sink",
                List.of(
                    "org.apache.avro.io.FastReaderBuilder$RecordReader.read",
                    "io.bucketer.topics.ClosedBucketSerde.decode",
                    "org.apache.kafka.clients.consumer.internals.CompletedFetch.parseRecord")))
        .isEqualTo(Stage.SINK);
    // the driver's own thread, reading MongoDB's answers
    assertThat(
            StageClassifier.classify(
                "AsyncGetter-3-thread-1",
                List.of(
                    "org.bson.ByteBufNIO.getInt",
                    "com.mongodb.internal.connection.CompositeByteBuf.getInt")))
        .isEqualTo(Stage.SINK);
    // a sink thread's stack with no rule of its own
    assertThat(StageClassifier.classify("bucketer-sink", List.of("java.util.ArrayList.add")))
        .isEqualTo(Stage.SINK);
  }

  @Test
  void shouldChargeFetchingAndTheNetworkThreadsToTheClients() {
    assertThat(
            onStreamThread(
                "org.apache.kafka.common.record.internal.DefaultRecord.readFrom",
                "org.apache.kafka.clients.consumer.internals.CompletedFetch.fetchRecords",
                "org.apache.kafka.clients.consumer.KafkaConsumer.poll",
                "org.apache.kafka.streams.processor.internals.StreamThread.pollRequests",
                "org.apache.kafka.streams.processor.internals.StreamThread.pollPhase"))
        .isEqualTo(Stage.KAFKA_CLIENTS);
    assertThat(
            StageClassifier.classify(
                "kafka-producer-network-thread | app-StreamThread-1-producer",
                List.of(
                    "org.apache.kafka.streams.processor.internals.RecordCollectorImpl.lambda$send$0",
                    "org.apache.kafka.clients.producer.internals.ProducerBatch.complete")))
        .isEqualTo(Stage.KAFKA_CLIENTS);
  }

  @Test
  void shouldChargeWhatNoProcessorClaimsToTheTaskLoop() {
    assertThat(
            onStreamThread(
                "org.apache.kafka.common.metrics.Sensor.record",
                "org.apache.kafka.streams.processor.internals.RecordQueue.poll",
                "org.apache.kafka.streams.processor.internals.PartitionGroup.nextRecord",
                TASK_LOOP_BOTTOM))
        .isEqualTo(Stage.STREAMS_RUNTIME);
  }

  @Test
  void shouldReportTheBrokerApartByThreadOrByFrameEvenInClientClasses() {
    // the broker's controller channel uses the clients' NetworkClient
    assertThat(
            StageClassifier.classify(
                "broker-0-to-controller-heartbeat-channel-manager",
                List.of("org.apache.kafka.clients.NetworkClient.poll")))
        .isEqualTo(Stage.BROKER);
    assertThat(
            StageClassifier.classify(
                "data-plane-kafka-request-handler-1",
                List.of("jdk.internal.misc.Unsafe.putIntUnaligned")))
        .isEqualTo(Stage.BROKER);
    assertThat(
            StageClassifier.classify(
                "some-pool-1",
                List.of(
                    "org.apache.kafka.common.network.Selector.poll",
                    "kafka.network.Processor.run")))
        .isEqualTo(Stage.BROKER);
  }

  @Test
  void shouldChargeRestoringToTheChangelog() {
    assertThat(
            StageClassifier.classify(
                "app-StateUpdater-1",
                List.of("org.apache.kafka.clients.consumer.KafkaConsumer.poll")))
        .isEqualTo(Stage.CHANGELOG);
  }

  @Test
  void shouldLeaveTheBenchsOwnPollingAndUnknownStacksToOther() {
    assertThat(
            StageClassifier.classify(
                "main",
                List.of(
                    "com.mongodb.internal.connection.BaseCluster.selectServerAsync",
                    "reactor.core.publisher.Mono.block",
                    "io.bucketer.bench.StandInOperations.counts")))
        .isEqualTo(Stage.OTHER);
    assertThat(StageClassifier.classify("Thread-7", List.of("java.util.HashMap.resize")))
        .isEqualTo(Stage.OTHER);
    assertThat(StageClassifier.classify("Thread-7", List.of())).isEqualTo(Stage.OTHER);
  }

  /**
   * In a peer's own JVM (bench live) this package's frames are the peer's work, not the harness's.
   */
  @Test
  void shouldChargeThePeersOwnCodeToItsStagesInThePeersJvm() {
    final String peerThread = "bucketer-bench-memory-windowed-aggregate-abc-StreamThread-1";
    final List<String> aggregate =
        List.of(
            "io.bucketer.bench.WindowStats.add",
            "io.bucketer.bench.WindowedAggregateRun.lambda$topology$1",
            "org.apache.kafka.streams.kstream.internals.KStreamWindowAggregate$KStreamWindowAggregateProcessor.process",
            "org.apache.kafka.streams.processor.internals.ProcessorNode.process",
            TASK_LOOP_BOTTOM);
    final List<String> repartition =
        List.of(
            "org.apache.kafka.clients.producer.KafkaProducer.send",
            "org.apache.kafka.streams.processor.internals.RecordCollectorImpl.send",
            "org.apache.kafka.streams.processor.internals.SinkNode.process",
            "org.apache.kafka.streams.processor.internals.ProcessorContextImpl.forward",
            "io.bucketer.bench.ReadingsBySeries$KeyBySeries.process",
            TASK_LOOP_BOTTOM);
    final List<String> windowStore =
        List.of(
            "org.rocksdb.RocksDB.put",
            "org.apache.kafka.streams.state.internals.RocksDBSegmentedBytesStore.put",
            "org.apache.kafka.streams.kstream.internals.KStreamWindowAggregate$KStreamWindowAggregateProcessor.process",
            TASK_LOOP_BOTTOM);

    assertThat(StageClassifier.classify(peerThread, aggregate, false)).isEqualTo(Stage.AGGREGATE);
    assertThat(StageClassifier.classify(peerThread, repartition, false))
        .isEqualTo(Stage.REPARTITION);
    assertThat(StageClassifier.classify(peerThread, windowStore, false)).isEqualTo(Stage.AGGREGATE);
    // in the bench's own JVM the same frames are the harness's
    assertThat(StageClassifier.classify(peerThread, aggregate, true)).isEqualTo(Stage.OTHER);
  }
}
