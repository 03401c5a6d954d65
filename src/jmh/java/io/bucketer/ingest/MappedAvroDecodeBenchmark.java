package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.simulate.GatewayMessage;
import java.io.IOException;
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
 * {@link MappedAvroDecoder} (input.format=avro) on registry-framed Avro of a gateway's own schema,
 * the simulator's {@code gateway-reading.avsc}, read through the demo's mapping: one message, three
 * readings. Its plan (the projection of the writer schema and the mapped fields' positions) is
 * compiled by the first record and cached, as after a topic's first record; what is measured is the
 * framing, Avro's resolving read into the projection and the readings built from it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MappedAvroDecodeBenchmark {

  private static final int GATEWAY_SCHEMA_ID = 7;

  private MappedAvroDecoder decoder;
  private byte[] gateway;

  @Setup
  public void compileThePlan() throws IOException, InvalidReadingException {
    decoder =
        new MappedAvroDecoder(
            new MapSchemaLookup().with(GATEWAY_SCHEMA_ID, GatewayMessage.SCHEMA),
            SimulatorRecords.GATEWAY_MAPPING);
    gateway = SimulatorRecords.gatewayAsAvro(GATEWAY_SCHEMA_ID);
    decoder.readings(gateway);
  }

  @Benchmark
  public List<Reading> gatewayThreeValues() throws InvalidReadingException {
    return decoder.readings(gateway);
  }
}
