package io.bucketer.ingest.sparkplug;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The Sparkplug B payload's descriptors, built once from the descriptor set that protoc made of
 * {@code schemas/sparkplug_b.proto} and that is committed as {@value #RESOURCE}: bucketer runs
 * protoc neither at build time nor at run time, and reads payloads as dynamic messages with the
 * field descriptors held here, looked up once rather than by name for every record. Regenerate the
 * resource after a change of the schema with protoc 36.2 (libprotoc 36.2), from the repository's
 * root:
 *
 * <pre>
 * protoc --proto_path=schemas \
 *   --descriptor_set_out=src/main/resources/io/bucketer/ingest/sparkplug/sparkplug_b.desc \
 *   schemas/sparkplug_b.proto
 * </pre>
 *
 * {@code SparkplugSchemaTest} fails when the resource and the schema disagree.
 */
public final class SparkplugSchema {

  /** The class path resource of the descriptor set. */
  public static final String RESOURCE = "/io/bucketer/ingest/sparkplug/sparkplug_b.desc";

  /** The schema's one instance: descriptors are immutable and safe to share between threads. */
  public static final SparkplugSchema INSTANCE = load();

  final FileDescriptor file;
  final Descriptor payload;
  final Descriptor metric;
  final EnumDescriptor dataType;
  final FieldDescriptor payloadTimestamp;
  final FieldDescriptor payloadMetrics;
  final FieldDescriptor payloadSeq;
  final FieldDescriptor name;
  final FieldDescriptor alias;
  final FieldDescriptor metricTimestamp;
  final FieldDescriptor datatype;
  final FieldDescriptor isHistorical;
  final FieldDescriptor isNull;
  final OneofDescriptor value;
  final FieldDescriptor intValue;
  final FieldDescriptor longValue;
  final FieldDescriptor floatValue;
  final FieldDescriptor doubleValue;
  final FieldDescriptor booleanValue;
  final FieldDescriptor stringValue;

  private SparkplugSchema(final FileDescriptor file) {
    this.file = file;
    this.payload = file.findMessageTypeByName("Payload");
    this.metric = payload.findNestedTypeByName("Metric");
    this.dataType = file.findEnumTypeByName("DataType");
    this.payloadTimestamp = field(payload, "timestamp");
    this.payloadMetrics = field(payload, "metrics");
    this.payloadSeq = field(payload, "seq");
    this.name = field(metric, "name");
    this.alias = field(metric, "alias");
    this.metricTimestamp = field(metric, "timestamp");
    this.datatype = field(metric, "datatype");
    this.isHistorical = field(metric, "is_historical");
    this.isNull = field(metric, "is_null");
    this.value = metric.getOneofs().get(0);
    this.intValue = field(metric, "int_value");
    this.longValue = field(metric, "long_value");
    this.floatValue = field(metric, "float_value");
    this.doubleValue = field(metric, "double_value");
    this.booleanValue = field(metric, "boolean_value");
    this.stringValue = field(metric, "string_value");
  }

  /** The schema's file, as the descriptor set describes it. */
  public FileDescriptor file() {
    return file;
  }

  private static FieldDescriptor field(final Descriptor message, final String name) {
    final FieldDescriptor field = message.findFieldByName(name);
    if (field == null) {
      throw new IllegalStateException(
          RESOURCE + " has no field " + message.getName() + "." + name + ": regenerate it");
    }
    return field;
  }

  private static SparkplugSchema load() {
    try (InputStream in = SparkplugSchema.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + RESOURCE + " on the class path");
      }
      final FileDescriptorSet set = FileDescriptorSet.parseFrom(in);
      return new SparkplugSchema(FileDescriptor.buildFrom(set.getFile(0), new FileDescriptor[0]));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (DescriptorValidationException e) {
      throw new IllegalStateException(RESOURCE + " is no valid descriptor set", e);
    }
  }
}
