package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import io.bucketer.ingest.sparkplug.SparkplugDataType;
import io.bucketer.ingest.sparkplug.SparkplugMessages;
import io.bucketer.ingest.sparkplug.SparkplugMessages.EdgeNode;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import io.bucketer.ingest.sparkplug.SparkplugPayload;
import io.bucketer.ingest.sparkplug.SparkplugPayloads;
import io.bucketer.ingest.sparkplug.SparkplugReadings;
import io.bucketer.ingest.sparkplug.SparkplugTopic;
import io.bucketer.simulate.GatewayMessage;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sparkplug B (input.format=sparkplug-b): the simulator's gateway message (sensor-0042's
 * temperature, humidity and battery, as {@code GatewayMessage} has them) as an edge node's NDATA,
 * each metric by its alias alone after an NBIRTH, read into its three readings: the topic parsed,
 * the payload read as a dynamic message, the aliases resolved through the birth. What the Sparkplug
 * decode processor does per DATA record, without its store (births are kept as objects in front of
 * it) and without the checks every format shares.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SparkplugDecodeBenchmark {

  private final SparkplugPayloads payloads = new SparkplugPayloads();
  private final SparkplugReadings readings = new SparkplugReadings(false);
  private Message ndata;
  private SparkplugBirth birth;

  @Setup
  public void makeTheBirthAndTheData() throws InvalidReadingException {
    final GatewayMessage gateway = GatewayMessage.of(SimulatorRecords.READING);
    final List<SparkplugMessages.Metric> metrics =
        GatewayMessage.VALUE_FIELDS.stream()
            .map(field -> new SparkplugMessages.Metric(field, SparkplugDataType.DOUBLE))
            .toList();
    final EdgeNode node = new EdgeNode("plant", SimulatorRecords.READING.getSensorId(), metrics);
    final long time = SimulatorRecords.READING.getTimestamp().toEpochMilli();
    final double[] values = {gateway.temperature(), gateway.humidity(), gateway.battery()};
    final Message nbirth = node.nbirth(time, values);
    birth =
        SparkplugBirth.of(SparkplugTopic.parse(nbirth.topic()), payloads.read(nbirth.payload()));
    ndata = node.ndata(time, values);
  }

  /** The payload alone, as a dynamic message read into bucketer's view of it. */
  @Benchmark
  public SparkplugPayload readPayload() throws InvalidReadingException {
    return payloads.read(ndata.payload());
  }

  /** Topic, payload and aliases: one NDATA, three readings. */
  @Benchmark
  public List<Reading> ndataThreeValues() throws InvalidReadingException {
    final SparkplugTopic topic = SparkplugTopic.parse(ndata.topic());
    return readings.of(topic, payloads.read(ndata.payload()), birth).readings();
  }
}
