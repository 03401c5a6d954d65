package io.bucketer.cli;

import io.bucketer.simulate.GatewayFleet;
import java.util.Locale;
import picocli.CommandLine;
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
      converter = FormatConverter.class,
      description =
          "How each record is written: avro (Schema Registry framing), json (a UTF-8 JSON object,"
              + " ISO-8601 times, no registry), senml or senml-cbor (a SenML pack of the record's"
              + " readings, RFC 8428, the device as base name and each metric as unit), protobuf"
              + " (registry-framed Protobuf of schemas/gateway-reading.proto) or json-schema"
              + " (registry-framed JSON of schemas/gateway-reading.schema.json), both with"
              + " --schema gateway only, or sparkplug-b (edge nodes' births, then a DDATA per"
              + " record, keyed by MQTT topic) (default: ${DEFAULT-VALUE}).")
  GatewayFleet.Format format;

  /** Refuses a shape the format cannot write, in the command line's words. */
  void check(final CommandLine commandLine) {
    if (!GatewayFleet.writes(shape, format)) {
      throw new CommandLine.ParameterException(
          commandLine,
          "--format "
              + format.label()
              + " writes a gateway's own message: use it with --schema gateway");
    }
  }

  /** Formats by their names, which may hold a dash. */
  static final class FormatConverter implements CommandLine.ITypeConverter<GatewayFleet.Format> {
    @Override
    public GatewayFleet.Format convert(final String value) {
      try {
        return GatewayFleet.Format.of(value.toLowerCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
