package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import java.nio.charset.StandardCharsets;
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
 * {@link JsonReadingDecoder} (input.format=json): one UTF-8 JSON object to its readings, Jackson's
 * tree included. The decoder is stateless and needs no registry, so nothing is cached before the
 * first record and the setup only makes the records.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JsonDecodeBenchmark {

  private final JsonReadingDecoder ownShape = new JsonReadingDecoder(ReadingMapping.DEFAULT);
  private final JsonReadingDecoder gatewayShape =
      new JsonReadingDecoder(SimulatorRecords.GATEWAY_MAPPING);
  private byte[] reading;
  private byte[] gateway;
  private byte[] gatewayEpochMillis;

  @Setup
  public void makeTheSimulatorsRecords() {
    // The simulator writes times as ISO-8601 instants; bridges that write epoch milliseconds
    // instead skip the parsing of the text (both forms are in the tests' gateway messages).
    reading = SimulatorRecords.readingAsJson();
    gateway = SimulatorRecords.gatewayAsJson();
    final String iso = "\"" + SimulatorRecords.READING.getTimestamp() + "\"";
    final String millis = Long.toString(SimulatorRecords.READING.getTimestamp().toEpochMilli());
    gatewayEpochMillis =
        new String(gateway, StandardCharsets.UTF_8)
            .replace(iso, millis)
            .getBytes(StandardCharsets.UTF_8);
  }

  /** bucketer's own shape with the default mapping: one reading. */
  @Benchmark
  public List<Reading> ownShape() throws InvalidReadingException {
    return ownShape.readings(reading);
  }

  /** A gateway's message through the demo's mapping: three readings. */
  @Benchmark
  public List<Reading> gatewayThreeValues() throws InvalidReadingException {
    return gatewayShape.readings(gateway);
  }

  /** The same message with its time as epoch milliseconds. */
  @Benchmark
  public List<Reading> gatewayThreeValuesEpochMillis() throws InvalidReadingException {
    return gatewayShape.readings(gatewayEpochMillis);
  }
}
