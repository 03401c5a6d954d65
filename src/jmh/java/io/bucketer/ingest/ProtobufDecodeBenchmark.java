package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.protobuf.DescriptorSetDecoder;
import io.bucketer.ingest.protobuf.ProtobufDecoder;
import io.bucketer.simulate.GatewayMessage;
import java.util.Arrays;
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
 * input.format=protobuf on the simulator's gateway message (schemas/gateway-reading.proto) through
 * the demo's mapping: one message, three readings, as {@link MappedAvroDecodeBenchmark} measures
 * its Avro twin. Registry framed: the schema was compiled and the message's plan made by the first
 * record, as after a topic's first record; what is measured is the framing and message indexes,
 * protobuf-java's dynamic message, and the readings built from it. Bare binary of a descriptor
 * set's message: the same without the 5-byte header and the indexes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ProtobufDecodeBenchmark {

  private static final int GATEWAY_SCHEMA_ID = 7;

  private ProtobufDecoder framed;
  private DescriptorSetDecoder bare;
  private byte[] gateway;
  private byte[] gatewayBody;

  @Setup
  public void compileThePlan() throws InvalidReadingException {
    final SchemaText schema = GatewayMessage.PROTO_SCHEMA;
    framed =
        new ProtobufDecoder(
            new SchemaTextLookup() {
              @Override
              public SchemaText schemaTextById(final int id) {
                return schema;
              }

              @Override
              public SchemaText schemaTextByVersion(final String subject, final int version) {
                throw new IllegalStateException("the gateway schema references none");
              }
            },
            SimulatorRecords.GATEWAY_MAPPING);
    bare =
        new DescriptorSetDecoder(
            SimulatorRecords.gatewayProtobufType(), SimulatorRecords.GATEWAY_MAPPING);
    gateway = SimulatorRecords.gatewayAsProtobuf(GATEWAY_SCHEMA_ID);
    // the header and the one-byte index array [0]
    gatewayBody =
        Arrays.copyOfRange(gateway, ConfluentWireFormat.HEADER_LENGTH + 1, gateway.length);
    framed.readings(gateway);
  }

  @Benchmark
  public List<Reading> gatewayThreeValues() throws InvalidReadingException {
    return framed.readings(gateway);
  }

  @Benchmark
  public List<Reading> gatewayThreeValuesFromADescriptorSet() throws InvalidReadingException {
    return bare.readings(gatewayBody);
  }
}
