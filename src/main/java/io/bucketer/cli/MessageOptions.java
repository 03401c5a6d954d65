package io.bucketer.cli;

import io.bucketer.simulate.GatewayFleet;
import picocli.CommandLine.Option;

/** What the simulated gateways' records hold and how they are written. */
final class MessageOptions {

  @Option(
      names = "--schema",
      defaultValue = "reading",
      description =
          "What each record holds: reading (bucketer's own Reading schema, one value) or gateway"
              + " (a gateway's own schema: deviceId, ts, temperature, humidity, battery; three"
              + " readings a record) (default: ${DEFAULT-VALUE}).")
  GatewayFleet.Shape shape;

  @Option(
      names = "--format",
      defaultValue = "avro",
      description =
          "How each record is written: avro (Schema Registry framing) or json (a UTF-8 JSON object,"
              + " ISO-8601 times, no registry) (default: ${DEFAULT-VALUE}).")
  GatewayFleet.Format format;
}
