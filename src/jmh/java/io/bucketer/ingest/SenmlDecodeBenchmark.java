package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.senml.SenmlDecoder;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlMetric;
import io.bucketer.ingest.senml.SenmlOptions;
import io.bucketer.ingest.senml.SkippedValues;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link SenmlDecoder} (input.format=senml): one SenML pack to its readings, Jackson's streaming
 * parser included, in JSON and in CBOR. Scores are per reading ({@code @OperationsPerInvocation}):
 * a pack is many readings, so this is the figure to set beside the one-reading decoders. Stateless
 * and registry-free, like the JSON decoder: the setup only makes the packs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SenmlDecodeBenchmark {

  private final SenmlDecoder json = decoder(SenmlEncoding.JSON);
  private final SenmlDecoder cbor = decoder(SenmlEncoding.CBOR);
  private InputRecord gatewayJson;
  private InputRecord gatewayCbor;
  private InputRecord minuteJson;
  private InputRecord minuteCbor;

  @Setup
  public void makeThePacks() {
    gatewayJson = record(SimulatorRecords.gatewayAsSenml(SenmlEncoding.JSON));
    gatewayCbor = record(SimulatorRecords.gatewayAsSenml(SenmlEncoding.CBOR));
    minuteJson = record(SimulatorRecords.minuteAsSenml(SenmlEncoding.JSON));
    minuteCbor = record(SimulatorRecords.minuteAsSenml(SenmlEncoding.CBOR));
  }

  /** The gateway's message as a pack of three records: per reading. */
  @Benchmark
  @OperationsPerInvocation(3)
  public List<Reading> gatewayThreeValuesJson() throws InvalidReadingException {
    return json.readings(gatewayJson);
  }

  @Benchmark
  @OperationsPerInvocation(3)
  public List<Reading> gatewayThreeValuesCbor() throws InvalidReadingException {
    return cbor.readings(gatewayCbor);
  }

  /** A minute of one sensor at 1 Hz in one pack: per reading. */
  @Benchmark
  @OperationsPerInvocation(60)
  public List<Reading> minuteOf60Json() throws InvalidReadingException {
    return json.readings(minuteJson);
  }

  @Benchmark
  @OperationsPerInvocation(60)
  public List<Reading> minuteOf60Cbor() throws InvalidReadingException {
    return cbor.readings(minuteCbor);
  }

  private static SenmlDecoder decoder(final SenmlEncoding encoding) {
    return new SenmlDecoder(new SenmlOptions(encoding, SenmlMetric.UNIT, SkippedValues.NONE));
  }

  /** A Kafka record of the pack, timestamped as a producer would, at the pack's base time. */
  private static InputRecord record(final byte[] pack) {
    return new InputRecord(
        null,
        pack,
        InputRecord.Headers.NONE,
        SimulatorRecords.READING.getTimestamp().toEpochMilli());
  }
}
